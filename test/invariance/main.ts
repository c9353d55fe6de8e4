// `npm run invariance [-- --conditions quiet,all] [--seed N]`: the full default suite against the
// embedded reference under each condition, with one seed. Exit 0 only if every verdict under every
// condition equals the quiet run's; prints each condition's wall time and every verdict that moved.

import { CONDITION_IDS, CONDITIONS, type ConditionId } from './conditions.ts';
import { changedVerdicts, INVARIANCE_DEFAULTS, runUnder, type ConditionRun } from './invariance.ts';

function parseArgs(argv: string[]): { ids: ConditionId[]; seed: number } {
  let ids: ConditionId[] = [...CONDITION_IDS];
  let seed: number = INVARIANCE_DEFAULTS.seed;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--conditions') {
      const asked = String(value() ?? '').split(',').filter(Boolean);
      const unknown = asked.filter((a) => !CONDITION_IDS.includes(a as ConditionId));
      if (unknown.length || asked.length === 0) throw new Error(`--conditions takes a comma-separated list of ${CONDITION_IDS.join(', ')}; got ${JSON.stringify(asked.join(','))}`);
      ids = asked as ConditionId[];
    } else if (flag === '--seed') {
      seed = Number(value());
      if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed takes a non-negative integer`);
    } else throw new Error(`unknown option ${argv[i]} (options: --conditions LIST, --seed N)`);
  }
  // The quiet run is the reference point: always first.
  return { ids: ['quiet', ...ids.filter((id) => id !== 'quiet')], seed };
}

async function main(): Promise<number> {
  const { ids, seed } = parseArgs(process.argv.slice(2));
  const runs: ConditionRun[] = [];
  let moved = 0;
  for (const id of ids) {
    const run = await runUnder(CONDITIONS[id], { seed });
    runs.push(run);
    const counts = [...run.verdicts.values()].reduce<Record<string, number>>((acc, v) => ((acc[v.split(' ')[0]] = (acc[v.split(' ')[0]] ?? 0) + 1), acc), {});
    const chaos = run.tally.answers ? `, ${run.tally.answers} answers held ${Math.round(run.tally.heldMs / 1000)} s in all, ${run.tally.refused429} refused with 429` : '';
    const changes = id === 'quiet' ? [] : changedVerdicts(runs[0], run);
    moved += changes.length;
    process.stdout.write(`${id.padEnd(13)} ${(run.wallMs / 1000).toFixed(1).padStart(7)} s  ${JSON.stringify(counts)}${chaos}  ${id === 'quiet' ? 'reference' : changes.length ? `${changes.length} verdict(s) moved` : 'identical'}\n`);
    for (const c of changes) process.stdout.write(`  ${c.checkId}: ${c.expected} -> ${c.actual}: ${c.detail}\n`);
  }
  process.stdout.write(moved ? `FAIL: ${moved} verdict(s) differ from the quiet run (seed ${seed})\n` : `PASS: every verdict identical under ${ids.join(', ')} (seed ${seed})\n`);
  return moved ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`invariance: ${(err as Error).message}\n`);
    process.exit(2);
  },
);

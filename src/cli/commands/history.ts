// `baas-conform history RESULTS.json... [--out DIR] [--window N]`: the runs of one target in run order,
// per rule and per check: streak, new / fixed / regressed against the previous run and the last N,
// flapping; with --classify, each check that changed replayed by seed against the target and classed.
// Writes history.json and history.html. Exit 1 when the latest run regressed against the
// previous one (or a rule flaps against the reference: a toolkit bug), 4 with fewer than two runs
// (nothing to compare), 2 for a foreign, other-version or other-target file.
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { ConfigError } from '../../errors/index.ts';
import { buildHistory, classifyFlakes, CLASSIFY_DEFAULTS, flakeCandidates, formatHistory, HISTORY_DEFAULTS, loadRuns, targetReplay, writeHistory } from '../../api/history.ts';
import { withCancellation } from '../cancel.ts';
import { resolveRunOptions } from '../../options/index.ts';
import { SHARED_FLAGS } from '../flags.ts';
import type { CliIo, CommandImpl } from '../types.ts';

interface HistoryArgs {
  files?: string[];
  out?: string;
  window?: number;
  json?: boolean;
  classify?: boolean;
  classifyTimes?: number;
  config?: string;
  profile?: string;
  target?: string;
  runs?: number;
}

/** A count flag: a positive integer, else a usage error. */
function countOf(flag: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`--${flag} must be a whole number, 1 or more, got ${JSON.stringify(value)}`);
  return n;
}

async function historyHandler(args: HistoryArgs, io: CliIo): Promise<number> {
  const window = countOf('window', args.window, HISTORY_DEFAULTS.window);
  const times = countOf('classify-times', args.classifyTimes, CLASSIFY_DEFAULTS.times);
  const runs = await loadRuns((args.files ?? []).map(String), io.cwd);
  const doc = buildHistory(runs, { window });
  if (args.classify) {
    const o = await resolveRunOptions(args, io.cwd);
    const candidates = flakeCandidates(runs, window);
    if (candidates.length > 0) io.stderr.write(`classifying ${candidates.length} checks by replaying their seeds (up to ${2 * times} runs of one check each)\n`);
    doc.flakes = await withCancellation(io, 'the replays are aborted', (signal) =>
      classifyFlakes(candidates, targetReplay({ profile: o.profiles[0], target: o.target || undefined, env: io.env, cwd: io.cwd, numRuns: o.numRuns, signal }), times),
    );
  }
  const files = await writeHistory(doc, resolve(io.cwd, args.out ?? HISTORY_DEFAULTS.dir));
  const human = args.json ? io.stderr : io.stdout;
  human.write(`${formatHistory(doc).join('\n')}\n`);
  if (args.json) io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  human.write(`History: ${files.json}, ${files.html}\nExit ${doc.exit.code}${doc.exit.reasons.length ? `: ${doc.exit.reasons.join('; ')}` : ''}\n`);
  return doc.exit.code;
}

export const historyCommand: CommandImpl<HistoryArgs> = {
  builder: (y: Argv) =>
    y
      .positional('files', { type: 'string', array: true, describe: 'results.json files of one target, in any order (they are ordered by start time)' })
      .option('out', { type: 'string', describe: `Directory for history.json and history.html (default ./${HISTORY_DEFAULTS.dir})` })
      .option('window', { type: 'number', describe: `Runs before the latest that "vs last N" and flapping look at (default ${HISTORY_DEFAULTS.window})` })
      .option('json', SHARED_FLAGS.json)
      .option('classify', { type: 'boolean', describe: `Replay each check that failed in one run and passed in another of the window, by seed, against the target (--profile, --target, or the embedded reference; --runs as the nightly's), and class it: deterministic, target-flaky or generator-found (at most ${CLASSIFY_DEFAULTS.maxChecks} checks)` })
      .option('classify-times', { type: 'number', describe: `Replays of each seed with --classify (default ${CLASSIFY_DEFAULTS.times})` })
      // --classify's target and fast-check runs, as for run (flags > --config > defaults).
      .options(Object.fromEntries((['config', 'profile', 'target', 'runs'] as const).map((f) => [f, SHARED_FLAGS[f]]))),
  run: historyHandler,
};

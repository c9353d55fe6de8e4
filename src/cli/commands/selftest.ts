// `baas-conform selftest`: runs every check against the unmodified reference and against every
// variant of the mutant bank (src/mutants/registry.ts); prints the kill matrix, the mutation score and
// the false positives. Exit 0 only when every faulty variant is caught by a check naming the broken
// rule and neither a benign variant nor the baseline fails any check.

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { ConfigError } from '../../errors/index.ts';
import { ALL_SETS, areaNames, brokenRules, buildMutantBank, describeVariant, runSelftest, selectVariants, SELFTEST_DEFAULTS, variantsById, type MutantVariant, type SelftestProfile, type SelftestResult, type VariantOutcome } from '../../mutants/index.ts';
import { loadModel } from '../../model/index.ts';
import { writeSelftestReport } from '../../report/html-selftest.ts';
import type { CliCommand, CliIo } from '../types.ts';
import { parseSeed, positiveInt } from '../options.ts';
import { CLIENT_AREA, clientModes, formatClientBank, runClientBank } from './selftest-clients.ts';

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const failingText = (o: VariantOutcome) => o.failing.map((f) => `${f.checkId} [${f.rules.join(',')}]${f.cause ? ` ${f.cause}` : ''}`).join('; ');

function verdictOf(o: VariantOutcome): string {
  if (o.error) return `ERROR: ${o.error}`;
  if (o.kind === 'faulty') {
    if (o.ok) return o.caughtBy.join(', ');
    if (o.failing.length === 0) return 'NOT CAUGHT (no check failed)';
    const why = o.notCredited.map((n) => `${n.checkId}: ${n.reason}`).join('; ');
    return `NOT CAUGHT (${why ? `not credited: ${why}; ` : ''}failing: ${failingText(o)})`;
  }
  return o.failing.length === 0 ? '-' : `FALSE POSITIVE: ${o.failing.map((f) => f.checkId).join(', ')}`;
}

export function formatSelftest(r: SelftestResult): string {
  const rows = [r.baseline, ...r.variants];
  const w = { id: Math.max(7, ...rows.map((o) => o.id.length)), breaks: Math.max(6, ...rows.map((o) => o.breaks.join(',').length)) };
  const lines: string[] = [];
  lines.push(`${'VARIANT'.padEnd(w.id)}  ${'KIND'.padEnd(8)}  ${'BREAKS'.padEnd(w.breaks)}  CAUGHT BY`);
  for (const o of rows) lines.push(`${o.id.padEnd(w.id)}  ${o.kind.padEnd(8)}  ${(o.breaks.join(',') || '-').padEnd(w.breaks)}  ${verdictOf(o)}`);
  lines.push('');
  lines.push(`Baseline: ${r.baseline.passed} passed, ${r.baseline.failing.length} failed or blocked, ${r.baseline.skipped} skipped (${r.checks} checks, ${secs(r.baseline.durationMs)})`);
  lines.push(`Mutation score: ${r.score.caught}/${r.score.faulty} faulty variants caught by a check whose own assertion names the broken rule (${r.score.percent}%)`);
  if (r.uncaught.length) {
    lines.push(`Not caught (${r.uncaught.length}):`);
    for (const id of r.uncaught) {
      const o = r.variants.find((v) => v.id === id)!;
      lines.push(`  ${id} [${o.breaks.join(',')}]: ${verdictOf(o)}`);
    }
  }
  const rc = r.ruleCoverage;
  lines.push(`Mutation coverage by rule: ${rc.caught}/${rc.testable} testable rules broken by a caught faulty variant`);
  const notRun = rc.without.filter((w) => w.why.startsWith('not run here'));
  for (const w of rc.without.filter((x) => !notRun.includes(x))) lines.push(`  ${w.rule}: ${w.why.slice(0, 240)}`);
  if (notRun.length) lines.push(`  ${notRun.length} rules whose variants were not run (a partial bank: --variant/--area)`);
  if (r.hidden.length) {
    lines.push(`Hidden by a missing service (every check of the rule skipped, or could not judge, under profile ${r.profile}; ${r.profile === 'minimal' ? 'expected here' : 'counts as not caught'}): ${r.hidden.length}`);
    for (const h of r.hidden) lines.push(`  ${h.variant}: ${h.missing.map((m) => m.slice(0, 160)).join('; ')}`);
  }
  if (r.silentlyPassed.length) lines.push(`Silently passed (a check of the rule ran, judged and passed; counts as not caught under every profile): ${r.silentlyPassed.join(', ')}`);
  if (r.caughtOnlyByOtherRules.length) lines.push(`Failing checks but no credited kill (count as not caught): ${r.caughtOnlyByOtherRules.join(', ')}`);
  const benign = r.variants.filter((o) => o.kind === 'benign').length;
  lines.push(`False positives: ${r.falsePositives.length === 0 ? 'none' : r.falsePositives.length} (baseline + ${benign} benign variants)`);
  // A check failing on the baseline fails on most variants too: show it once, then the rest.
  const onBaseline = new Set(r.baseline.failing.map((f) => f.checkId));
  for (const f of r.falsePositives.filter((x) => x.variant === r.baseline.id)) {
    const alsoOn = r.falsePositives.filter((x) => x.variant !== r.baseline.id && x.checkId === f.checkId).length;
    lines.push(`  baseline: ${f.checkId} [${f.rules.join(',')}]${f.cause ? ` ${f.cause}` : ''}: ${f.message.slice(0, 300)}${alsoOn ? ` (also on ${alsoOn} benign variants)` : ''}`);
  }
  if (r.baseline.error) lines.push(`  baseline: could not run: ${r.baseline.error}`);
  for (const f of r.falsePositives.filter((x) => x.variant !== r.baseline.id && !onBaseline.has(x.checkId))) {
    lines.push(`  ${f.variant}: ${f.checkId} [${f.rules.join(',')}]${f.cause ? ` ${f.cause}` : ''}: ${f.message.slice(0, 300)}`);
  }
  // Skips are their own count: neither a pass nor a kill. New skips on a benign variant mean a
  // correct server made a check give up; on a faulty one they may hide the fault.
  lines.push(`Skips: ${r.skips.baseline} on the baseline; ${r.skips.variantsWithNewSkips} variants skipped checks that pass on the baseline${r.skips.benignWithNewSkips.length ? ` (benign: ${r.skips.benignWithNewSkips.join(', ')})` : ''}`);
  for (const o of rows.filter((x) => x.newlySkipped.length > 0)) lines.push(`  ${o.kind === 'benign' ? 'BENIGN ' : ''}${o.id} skipped: ${o.newlySkipped.join(', ')}`);
  lines.push(`Seed ${r.seed}, profile ${r.profile}, timeout budget ${r.timeoutBudgetMs} ms, ${r.concurrency} variants at once on ${r.workers} worker threads, ${secs(r.durationMs)}`);
  return `${lines.join('\n')}\n`;
}

function nonNegativeInt(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`--${name} must be an integer >= 0, got ${JSON.stringify(value)}`);
  return n;
}

function chooseVariants(ids: string[], areas: string[], io: CliIo): MutantVariant[] {
  let bank: MutantVariant[];
  if (areas.length) {
    const { variants, notices } = selectVariants(areas);
    for (const n of notices) io.stderr.write(`selftest: ${n}\n`);
    bank = variants;
  } else bank = buildMutantBank();
  if (!ids.length) return bank;
  try {
    return variantsById(ids, areas.length ? bank : buildMutantBank(ALL_SETS));
  } catch (err) {
    throw new ConfigError(`--variant: ${(err as Error).message}`);
  }
}

async function selftestHandler(args: Record<string, any>, io: CliIo): Promise<number> {
  const concurrency = positiveInt('concurrency', args.concurrency) ?? SELFTEST_DEFAULTS.concurrency;
  const workers = nonNegativeInt('workers', args.workers) ?? SELFTEST_DEFAULTS.workers;
  const timeoutBudgetMs = positiveInt('timeout-budget', args.timeoutBudget) ?? SELFTEST_DEFAULTS.timeoutBudgetMs;
  const seed = parseSeed(args.seed) ?? SELFTEST_DEFAULTS.seed;
  const profile: SelftestProfile = args.profile === undefined ? SELFTEST_DEFAULTS.profile : args.profile;
  if (profile !== 'full' && profile !== 'minimal') throw new ConfigError(`--profile must be full or minimal, got ${JSON.stringify(args.profile)}`);
  const ids = [...(args.variant ?? [])].map(String);
  const areas = [...(args.area ?? [])].map(String);
  // The clients area (the client bank) runs with the default bank, or alone with --area clients.
  const serverAreas = areas.filter((a) => a !== CLIENT_AREA);
  const withClients = areas.includes(CLIENT_AREA) || (areas.length === 0 && ids.length === 0);
  const withServer = !(areas.length > 0 && serverAreas.length === 0) || ids.length > 0;
  const variants = withServer ? chooseVariants(ids, serverAreas, io) : [];
  if (args.list) {
    const model = variants.length ? await loadModel() : undefined;
    for (const v of variants) io.stdout.write(`${v.id.padEnd(48)} ${v.kind.padEnd(7)} ${(brokenRules(v).join(',') || '-').padEnd(36)} ${describeVariant(v, model!)}\n`);
    if (withClients && areas.includes(CLIENT_AREA)) for (const m of await clientModes()) io.stdout.write(`client:${m}\n`);
    return 0;
  }
  // Where the client kill matrix goes: --json when the clients area runs alone, else beside the report.
  const clientsJson = !withServer && args.json ? resolve(io.cwd, String(args.json)) : args.reportDir ? resolve(io.cwd, String(args.reportDir), 'selftest-clients.json') : undefined;
  if (!withServer) return runClients(io, concurrency, clientsJson);
  io.stdout.write(`selftest: baseline + ${variants.length} variants (${variants.filter((v) => v.kind === 'faulty').length} faulty, ${variants.filter((v) => v.kind === 'benign').length} benign), ${concurrency} at once on ${workers} worker threads, profile ${profile}, timeout budget ${timeoutBudgetMs} ms, seed ${seed}\n`);
  const result = await runSelftest({
    variants,
    concurrency,
    workers,
    timeoutBudgetMs,
    seed,
    profile,
    onProgress: (p) => {
      if (p.type !== 'variant-finished') return;
      const o = p.outcome;
      const mark = o.ok ? (o.kind === 'faulty' ? 'caught' : 'clean') : o.kind === 'faulty' ? 'NOT CAUGHT' : 'FALSE POSITIVE';
      io.stdout.write(`[${String(p.done).padStart(String(p.total).length)}/${p.total}] ${o.id} ${mark} (${secs(o.durationMs)})\n`);
    },
  });
  io.stdout.write('\n');
  io.stdout.write(formatSelftest(result));
  if (args.json) {
    const file = resolve(io.cwd, String(args.json));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
    io.stdout.write(`JSON: ${file}\n`);
  }
  if (args.reportDir) {
    const paths = await writeSelftestReport(resolve(io.cwd, String(args.reportDir)), result, await loadModel());
    io.stdout.write(`Report: ${paths.html}, ${paths.json}\n`);
  }
  const clients = withClients ? await runClients(io, concurrency, clientsJson) : 0;
  return result.exitCode || clients;
}

/** The client bank and its kill matrix; exit 1 unless every client was judged as it should be. */
async function runClients(io: CliIo, concurrency: number, jsonFile: string | undefined): Promise<number> {
  io.stdout.write(`\nselftest clients: the sample client in every mode, each against its own audit, ${Math.min(concurrency, 5)} at once\n`);
  const rows = await runClientBank(Math.min(concurrency, 5));
  io.stdout.write(formatClientBank(rows));
  if (jsonFile) {
    await mkdir(dirname(jsonFile), { recursive: true });
    await writeFile(jsonFile, `${JSON.stringify({ clients: rows, ok: rows.every((r) => r.ok) }, null, 2)}\n`);
    io.stdout.write(`Clients JSON: ${jsonFile}\n`);
  }
  return rows.every((r) => r.ok) ? 0 : 1;
}

export const selftestCommand: CliCommand = {
  command: 'selftest',
  describe: 'Prove the checks catch non-conformance: run them against the reference and every mutant variant',
  builder: (y: Argv) =>
    y
      .option('variant', { type: 'string', array: true, describe: 'Run only these variant ids (repeatable); the baseline always runs' })
      .option('area', { type: 'string', array: true, describe: `Run only the variants of these areas (repeatable): the area or topic of the rule a variant breaks, or benign: ${areaNames().join(', ')} (pending: faults no check catches yet; slow: minutes-long twins of default-bank variants; neither is in the default bank), ${CLIENT_AREA} (the client bank of examples/clients, judged by the client audit; in the default run)` })
      .option('workers', { type: 'number', describe: `Worker threads (default ${SELFTEST_DEFAULTS.workers}; 0 runs in this thread)` })
      .option('profile', { type: 'string', describe: 'full (control API, secrets, IdP: the default) or minimal (none of them: shows what only they catch)' })
      .option('concurrency', { type: 'number', describe: `Variants run at once (default ${SELFTEST_DEFAULTS.concurrency})` })
      .option('seed', { type: 'number', describe: `Run seed, the same for every variant (default ${SELFTEST_DEFAULTS.seed})` })
      .option('json', { type: 'string', describe: 'Write the full result (kill matrix, score, false positives) to this JSON file' })
      .option('report-dir', { type: 'string', describe: 'Write the kill-matrix page selftest.html and selftest.json into this directory' })
      .option('timeout-budget', { type: 'number', describe: `Per-request time budget in ms (default ${SELFTEST_DEFAULTS.timeoutBudgetMs})` })
      .option('list', { type: 'boolean', describe: 'List the variants and exit' }),
  run: selftestHandler,
};

// `baas-conform run`: resolve options once (flags > config file > defaults), pick the target
// (profile, --target, or the embedded reference), run the checks, write the reports.

import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { ConfigError } from '../../errors/index.ts';
// The conformance and history entries by their own files, not the src/api barrel: the barrel loads every
// mode (load, audit, certify, selftest ...), about 200 modules `run` never calls, on every start.
import { runConformance } from '../../api/conformance.ts';
import { appendToHistory, buildHistory, formatHistory, HISTORY_DEFAULTS, loadRuns, writeHistory } from '../../api/history.ts';
import { createReporters } from '../../report/index.ts';
import { resolveRunOptions, RUN_DEFAULTS, RUN_REPORT_DEFAULTS, type RunFlagValues } from '../../options/index.ts';
import type { CliIo, CommandImpl } from '../types.ts';
import { withCancellation } from '../cancel.ts';
import { sharedFlags } from '../flags.ts';
import { ciOptions, resolveCiOptions, type CiFlagValues } from '../ci-options.ts';

function shellArg(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The run flags plus the output flags run's builder adds (ci-options reads its own). */
interface RunArgs extends RunFlagValues, CiFlagValues {
  profile?: string;
  json?: boolean;
  jsonOut?: string;
  junit?: string;
  html?: string;
  har?: string;
  otlp?: string;
  verbose?: boolean;
  history?: string;
  report?: string[];
  historyKeep?: number;
}

async function runHandler(args: RunArgs, io: CliIo): Promise<number> {
  const o = await resolveRunOptions(args, io.cwd);
  const profilePath = o.profiles[0];
  if (o.profiles.length > 1) throw new ConfigError(`run takes one --profile (compare takes two), got ${o.profiles.length}`);
  const ci = await resolveCiOptions(args, io.cwd);
  // --history-keep and --otlp are qualified with the other options (src/options/run.ts), before the run.
  const historyDir = args.history === undefined ? undefined : resolve(io.cwd, String(args.history));
  const historyKeep = o.historyKeep ?? HISTORY_DEFAULTS.keep;
  // --json prints the results JSON on stdout; the console report then goes to stderr.
  const human = args.json ? io.stderr : io.stdout;
  const replayBase = ['npx baas-conform run', ...(profilePath ? ['--profile', shellArg(args.profile ?? profilePath)] : []), ...(o.target ? ['--target', shellArg(o.target)] : [])].join(' ');
  const paths = {
    json: resolve(io.cwd, args.jsonOut ?? join(o.reportDir, RUN_REPORT_DEFAULTS.files.json)),
    junit: resolve(io.cwd, args.junit ?? join(o.reportDir, RUN_REPORT_DEFAULTS.files.junit)),
    html: resolve(io.cwd, args.html ?? join(o.reportDir, RUN_REPORT_DEFAULTS.files.html)),
  };
  const ctrfPath = (args.report ?? []).includes('ctrf') ? resolve(io.cwd, join(o.reportDir, RUN_REPORT_DEFAULTS.files.ctrf)) : undefined;
  const allurePath = (args.report ?? []).includes('allure') ? resolve(io.cwd, join(o.reportDir, RUN_REPORT_DEFAULTS.files.allure)) : undefined;
  const har: string | undefined = args.har;
  const harPath = har === undefined ? undefined : resolve(io.cwd, har);
  const otlp = o.otlp;
  const reporters = createReporters({
    console: { stream: human },
    ...paths,
    ...(harPath ? { har: harPath } : {}),
    ...(ctrfPath ? { ctrf: ctrfPath } : {}),
    ...(allurePath ? { allure: allurePath } : {}),
    ...(otlp ? { otlp: { url: otlp, onProblem: (m: string) => io.stderr.write(`${m}\n`) } } : {}),
    replayBase,
  });
  const outcome = await withCancellation(io, 'running checks are aborted, reports are still written', (signal) =>
    // The library function (src/api) does target choice, model, checks and the run; the CLI adds flags and files.
    runConformance({
      profile: profilePath,
      target: o.target || undefined,
      env: io.env,
      cwd: io.cwd,
      seed: o.seed,
      shard: o.shard,
      safe: o.safe,
      checks: o.checks,
      concurrency: o.concurrency,
      numRuns: o.numRuns,
      timeoutBudgetMs: o.timeoutBudgetMs,
      checkTimeoutMs: o.checkTimeoutMs,
      rateLimitWaitMs: o.rateLimitWaitMs,
      failFast: o.failFast,
      minCoverage: o.minCoverage,
      controlAdapterFile: o.controlAdapterFile,
      webhookListen: o.webhookListen,
      ...ci,
      signal,
      reporters,
      onTarget: ({ profile, embedded }) => {
        if (embedded) human.write(`no --profile or --target: running against the embedded reference at ${profile.base_url}\n`);
      },
      onLog: args.verbose ? (id, msg) => human.write(`  [${id}] ${msg}\n`) : undefined,
    }),
  );
  human.write(`Reports: ${[paths.json, paths.junit, paths.html, ...(ctrfPath ? [ctrfPath] : []), ...(allurePath ? [allurePath] : []), ...(harPath ? [harPath] : [])].join(', ')}\n`);
  if (args.json) io.stdout.write(await readFile(paths.json, 'utf8'));
  if (outcome.coverageProblem) io.stderr.write(`${outcome.coverageProblem}\n`);
  if (historyDir) await recordHistory(historyDir, paths.json, historyKeep, human, io.cwd);
  return outcome.exitCode;
}

/** `run --history DIR`: this run joins the last runs kept in DIR, and the history is rewritten there. */
async function recordHistory(dir: string, resultsFile: string, keep: number, human: CliIo['stdout'], cwd: string): Promise<void> {
  const kept = await appendToHistory(dir, resultsFile, keep);
  const doc = buildHistory(await loadRuns(kept, cwd));
  const files = await writeHistory(doc, dir);
  human.write(`${formatHistory(doc).join('\n')}\nHistory (${kept.length} of at most ${keep} runs kept): ${files.json}, ${files.html}\n`);
}

export const runCommand: CommandImpl<RunArgs> = {
  builder: (y: Argv) =>
    sharedFlags(ciOptions(y), 'config', 'profile', 'target', 'seed', 'check', 'shard', 'safe', 'concurrency', 'runs', 'timeout-budget', 'check-timeout', 'report-dir', 'json', 'json-out', 'har', 'control-adapter')
      .option('rate-limit-wait', { type: 'number', describe: `How long (ms) one request waits out 429s (Retry-After, else backoff) before its check is blocked as RATE_LIMITED (default ${RUN_DEFAULTS.rateLimitWaitMs})` })
      .option('report', { type: 'string', array: true, choices: RUN_REPORT_DEFAULTS.reports, describe: `Also write these formats into --report-dir: ctrf (${RUN_REPORT_DEFAULTS.files.ctrf}, Common Test Report Format), allure (${RUN_REPORT_DEFAULTS.files.allure}/, one Allure result file per check); repeatable` })
      .option('junit', { type: 'string', describe: 'Path of the JUnit XML file' })
      .option('html', { type: 'string', describe: 'Path of the HTML report' })
      .option('otlp', { type: 'string', describe: 'Export the run as OpenTelemetry spans (run, check, request; rule ids as attributes) to this OTLP/HTTP traces URL' })
      .option('fail-fast', { type: 'boolean', describe: 'Stop starting checks after the first failure' })
      .option('min-coverage', { type: 'number', describe: 'Fail (exit 1) when less than this share (0..1) of the testable rules was exercised' })
      .option('webhook-listen', { type: 'string', describe: 'host:port for the webhook receiver (overrides profile.webhooks.listen)' })
      .option('history', { type: 'string', describe: 'Append this run to the history kept in this directory (its results.json into DIR/runs, the last --history-keep kept) and rewrite history.json and history.html there' })
      .option('history-keep', { type: 'number', describe: `How many runs --history keeps (default ${HISTORY_DEFAULTS.keep})` })
      .option('verbose', { type: 'boolean', describe: 'Print check log lines' }),
  run: runHandler,
};

// `baas-conform run`: resolve options once (flags > config file > defaults), pick the target
// (profile, --target, or the embedded reference), run the checks, write the reports.

import { join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { ConfigError } from '../../errors/index.ts';
import { runConformance } from '../../api/index.ts';
import { loadConfig } from '../../profile/index.ts';
import { createReporters } from '../../report/index.ts';
import { parseShard, RUN_DEFAULTS } from '../../runner/index.ts';
import { RETRY_DEFAULTS } from '../../client/index.ts';
import type { CliCommand, CliIo } from '../types.ts';
import { parseSeed, parseShare, positiveInt } from '../options.ts';
import { ciOptions, resolveCiOptions } from '../ci-options.ts';

export const RUN_CLI_DEFAULTS = {
  reportDir: 'baas-conform-report',
  files: { json: 'results.json', junit: 'junit.xml', html: 'report.html' },
} as const;

function shellArg(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

async function runHandler(args: Record<string, any>, io: CliIo): Promise<number> {
  const config = await loadConfig({ file: args.config, cwd: io.cwd });
  const profilePath: string | undefined = args.profile !== undefined ? resolve(io.cwd, args.profile) : config.profile;
  const target: string | undefined = args.target ?? config.target;
  const shardText: string | undefined = args.shard ?? config.shard;
  const shard = shardText === undefined ? undefined : parseShard(String(shardText));
  if (shardText !== undefined && !shard) throw new ConfigError(`--shard must look like i/n with 1 <= i <= n, got ${JSON.stringify(shardText)}`);
  const seed = parseSeed(args.seed ?? config.seed);
  const concurrency = positiveInt('concurrency', args.concurrency ?? config.concurrency);
  const numRuns = positiveInt('runs', args.runs ?? config.runs);
  const timeoutBudgetMs = positiveInt('timeout-budget', args.timeoutBudget ?? config.timeout_budget);
  const checkTimeoutMs = positiveInt('check-timeout', args.checkTimeout ?? config.check_timeout);
  const rateLimitWaitMs = positiveInt('rate-limit-wait', args.rateLimitWait ?? config.rate_limit_wait);
  const checkIds: string[] = [...(args.check ?? config.check ?? [])].map(String);
  const reportDir = resolve(io.cwd, args.reportDir ?? config.report_dir ?? RUN_CLI_DEFAULTS.reportDir);
  const safe = !!(args.safe ?? config.safe);
  const failFast = !!(args.failFast ?? config.fail_fast);
  const minCoverage = parseShare('min-coverage', args.minCoverage ?? config.min_coverage);
  const controlAdapter: string | undefined = args.controlAdapter !== undefined ? resolve(io.cwd, args.controlAdapter) : config.control_adapter;
  const webhookListen: string | undefined = args.webhookListen ?? config.webhook_listen;
  const ci = await resolveCiOptions(args, io.cwd);

  const controller = new AbortController();
  const onSigint = () => {
    io.stderr.write(`${'\n'}cancelling: running checks are aborted, reports are still written (Ctrl-C again to quit)\n`);
    controller.abort(new Error('cancelled'));
  };
  const replayBase = ['npx baas-conform run', ...(profilePath ? ['--profile', shellArg(args.profile ?? profilePath)] : []), ...(target ? ['--target', shellArg(target)] : [])].join(' ');
  const paths = {
    json: resolve(io.cwd, args.json ?? join(reportDir, RUN_CLI_DEFAULTS.files.json)),
    junit: resolve(io.cwd, args.junit ?? join(reportDir, RUN_CLI_DEFAULTS.files.junit)),
    html: resolve(io.cwd, args.html ?? join(reportDir, RUN_CLI_DEFAULTS.files.html)),
  };
  const har: string | undefined = args.har;
  const harPath = har === undefined ? undefined : resolve(io.cwd, har);
  const otlp: string | undefined = args.otlp;
  if (otlp !== undefined && !/^https?:\/\//i.test(otlp)) throw new ConfigError(`--otlp must be an http(s) URL of an OTLP/HTTP traces endpoint (e.g. http://127.0.0.1:4318/v1/traces), got ${JSON.stringify(otlp)}`);
  const reporters = createReporters({
    console: { stream: io.stdout },
    ...paths,
    ...(harPath ? { har: harPath } : {}),
    ...(otlp ? { otlp: { url: otlp, onProblem: (m: string) => io.stderr.write(`${m}\n`) } } : {}),
    replayBase,
  });
  process.once('SIGINT', onSigint);
  try {
    // The library function (src/api) does target choice, model, checks and the run; the CLI adds flags and files.
    const outcome = await runConformance({
      profile: profilePath,
      target: target || undefined,
      env: io.env,
      cwd: io.cwd,
      seed,
      shard,
      safe,
      checks: checkIds,
      concurrency: concurrency ?? RUN_DEFAULTS.concurrency,
      numRuns,
      timeoutBudgetMs,
      checkTimeoutMs,
      rateLimitWaitMs,
      failFast,
      minCoverage,
      controlAdapterFile: controlAdapter,
      webhookListen,
      ...ci,
      signal: controller.signal,
      reporters,
      onTarget: ({ profile, embedded }) => {
        if (embedded) io.stdout.write(`no --profile or --target: running against the embedded reference at ${profile.base_url}\n`);
      },
      onLog: args.verbose ? (id, msg) => io.stdout.write(`  [${id}] ${msg}\n`) : undefined,
    });
    io.stdout.write(`Reports: ${paths.json}, ${paths.junit}, ${paths.html}${harPath ? `, ${harPath}` : ''}\n`);
    if (outcome.coverageProblem) io.stderr.write(`${outcome.coverageProblem}\n`);
    return outcome.exitCode;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export const runCommand: CliCommand = {
  command: 'run',
  describe: 'Run the conformance checks against a target (default: the embedded reference)',
  builder: (y: Argv) =>
    ciOptions(y)
      .option('profile', { type: 'string', describe: 'Target profile JSON (spec/schemas/profile.schema.json)' })
      .option('target', { type: 'string', describe: 'Target base URL (overrides the profile base_url)' })
      .option('config', { type: 'string', describe: 'Config file (default ./baas-conform.config.json when present)' })
      .option('seed', { type: 'number', describe: 'Run seed (random when absent; printed for replay)' })
      .option('check', { type: 'string', array: true, describe: 'Run only these checks: exact id, prefix (errors.token.*) or glob; repeatable' })
      .option('shard', { type: 'string', describe: 'Run shard i of n, e.g. 2/4 (deterministic split by check id)' })
      .option('safe', { type: 'boolean', describe: 'Only checks that create nothing and move no money' })
      .option('concurrency', { type: 'number', describe: `Checks run at once (default ${RUN_DEFAULTS.concurrency})` })
      .option('runs', { type: 'number', describe: `fast-check runs per property (default ${RUN_DEFAULTS.numRuns})` })
      .option('timeout-budget', { type: 'number', describe: 'Per-request time budget in ms (default: the section 8 recommended request timeout from spec/)' })
      .option('rate-limit-wait', { type: 'number', describe: `How long (ms) one request waits out 429s (Retry-After, else backoff) before its check is blocked as RATE_LIMITED (default ${RETRY_DEFAULTS.maxWaitMs})` })
      .option('check-timeout', { type: 'number', describe: `Per-check time limit in ms (default ${RUN_DEFAULTS.checkTimeoutMs})` })
      .option('report-dir', { type: 'string', describe: `Directory for results.json, junit.xml, report.html (default ./${RUN_CLI_DEFAULTS.reportDir})` })
      .option('json', { type: 'string', describe: 'Path of the JSON results file' })
      .option('junit', { type: 'string', describe: 'Path of the JUnit XML file' })
      .option('html', { type: 'string', describe: 'Path of the HTML report' })
      .option('otlp', { type: 'string', describe: 'Export the run as OpenTelemetry spans (run, check, request; rule ids as attributes) to this OTLP/HTTP traces URL' })
      .option('har', { type: 'string', describe: 'Also write every exchange as HAR 1.2 to this file (secrets masked; entries carry _check, _rules, _verdict)' })
      .option('fail-fast', { type: 'boolean', describe: 'Stop starting checks after the first failure' })
      .option('min-coverage', { type: 'number', describe: 'Fail (exit 1) when less than this share (0..1) of the testable rules was exercised' })
      .option('control-adapter', { type: 'string', describe: 'Control adapter file (YAML, spec/schemas/control-adapter.schema.json) or JS module; overrides profile.control_adapter' })
      .option('webhook-listen', { type: 'string', describe: 'host:port for the webhook receiver (overrides profile.webhooks.listen)' })
      .option('verbose', { type: 'boolean', describe: 'Print check log lines' }),
  run: runHandler,
};

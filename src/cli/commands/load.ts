// `baas-conform load <scenario>`: a bounded load scenario against a target you own (default: the
// embedded reference), verdict against thresholds. `baas-conform load merge a.json b.json ...`:
// add results of several machines (histograms and counts) and recompute the percentiles.
// `load coordinate` and `load --coordinator URL`: a coordinated run (load-coordinate.ts).
// Exit: 0 pass, 1 a threshold or contract failed, 2 configuration, 3 target unreachable, 4 inconclusive
// (a threshold over zero samples, a read-back that could not read: judged nothing, never a pass).
// Progress goes to stderr (one line in place on a terminal, plain periodic lines otherwise).

import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { ConfigError, exitCodeOf } from '../../errors/index.ts';
import { LOAD_LIMITS, SCENARIOS, mergeResults, readResultFile, renderResult, runLoad, writeResult, type LoadOptions, type LoadResult, type Thresholds } from '../../load/index.ts';
import { writeLoadReport } from '../../load/html.ts';
import { writeLoadHar } from '../../load/har.ts';
import { parseThresholdFlag, planOptions, readPlan } from '../../load/plan.ts';
import { loadMetrics, serveMetrics, type MetricsServer } from '../../load/metrics.ts';
import { progressPrinter } from '../../load/progress.ts';
import { loadModel, type Model } from '../../model/index.ts';
import { boundedInt, boundedNumber } from '../../load/safety.ts';
import { LISTEN_DEFAULTS, LOAD_DEFAULTS, parsePort, parseSeed, parseShard, resolveRunOptions, resolveTarget, type Target } from '../../options/index.ts';
import { maskSecrets, type ResolvedProfile } from '../../profile/index.ts';
import type { CliIo, CommandImpl } from '../types.ts';
import { withCancellation } from '../cancel.ts';
import { sharedFlags } from '../flags.ts';
import { coordinateFlags, coordinatedRunner, coordinateHandler, type CoordinateArgs } from './load-coordinate.ts';

/** The flags load's builder declares (shared run flags plus the load ones). */
interface LoadArgs extends CoordinateArgs {
  config?: string;
  profile?: string;
  target?: string;
  seed?: number;
  shard?: string;
  timeoutBudget?: number;
  reportDir?: string;
  json?: boolean;
  har?: string;
  scenario?: string;
  files?: string[];
  plan?: string;
  allowRemote?: boolean;
  duration?: number;
  amount?: number;
  connections?: number;
  arrivalRate?: number;
  model?: string;
  drain?: number;
  progress?: boolean;
  p99Max?: number;
  errorRateMax?: number;
  threshold?: string | string[];
  conformanceErrorsMax?: number;
  judgeSample?: number;
  arrivals?: string;
  thinkTime?: number;
  metricsPort?: number;
  metricsHost?: string;
  rpsMin?: number;
  rawOut?: string;
  out?: string;
}

function thresholdsOf(args: LoadArgs, model: Model): Thresholds {
  const rules = ([] as unknown[]).concat(args.threshold ?? []).map((t) => parseThresholdFlag(String(t), model));
  return {
    ...(args.p99Max !== undefined ? { p99MaxMs: boundedNumber('p99-max', args.p99Max, 0, 3_600_000) } : {}),
    ...(args.errorRateMax !== undefined ? { errorRateMax: boundedNumber('error-rate-max', args.errorRateMax, 0, 1) } : {}),
    ...(args.rpsMin !== undefined ? { rpsMin: boundedNumber('rps-min', args.rpsMin, 0, 1e12) } : {}),
    ...(args.conformanceErrorsMax !== undefined ? { conformanceErrorsMax: boundedInt('conformance-errors-max', args.conformanceErrorsMax, 0, 0, 1e9) } : {}),
    ...(rules.length ? { rules } : {}),
  };
}

async function writeRaw(file: string, samples: number[]): Promise<void> {
  try {
    await writeFile(file, samples.length ? `${samples.join('\n')}\n` : '');
  } catch (err) {
    throw new ConfigError(`load: cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

async function emit(result: LoadResult, args: LoadArgs, io: CliIo, profile?: ResolvedProfile): Promise<number> {
  if (args.out) await writeResult(resolve(io.cwd, args.out), result, profile);
  if (args.har) await writeLoadHar(resolve(io.cwd, args.har), result, profile);
  if (args.reportDir) {
    const files = await writeLoadReport(resolve(io.cwd, args.reportDir), result, profile);
    io.stderr.write(`load report: ${files.html} (JSON: ${files.json})\n`);
  }
  const text = args.json ? `${JSON.stringify(result, null, 2)}\n` : renderResult(result);
  io.stdout.write(maskSecrets(text, profile));
  if (args.out && !args.json) io.stdout.write(`result written to ${args.out}\n`);
  return exitCodeOf(result.verdict.outcome ?? (result.verdict.pass ? 'pass' : 'fail'));
}

async function mergeHandler(args: LoadArgs, io: CliIo): Promise<number> {
  const files: string[] = (args.files ?? []).map(String);
  if (files.length < 2) throw new ConfigError('load merge: give at least two result files (load merge a.json b.json ...)');
  const inputs = await Promise.all(files.map((f) => readResultFile(resolve(io.cwd, f))));
  return emit(mergeResults(inputs, thresholdsOf(args, await loadModel())), args, io);
}

function flagOptions(scenario: string, args: LoadArgs, model: Model): Omit<LoadOptions, 'profile'> {
  const durationSec = boundedNumber('duration', args.duration, 0.1, LOAD_LIMITS.maxDurationSec) ?? LOAD_DEFAULTS.durationSec;
  const connections = args.connections === undefined ? undefined : boundedInt('connections', args.connections, LOAD_DEFAULTS.connections, 1, LOAD_LIMITS.maxConnections);
  const maxRequests = args.amount === undefined ? undefined : boundedInt('amount', args.amount, 0, 1, LOAD_LIMITS.maxMaxRequests);
  const arrivalRate = boundedNumber('arrival-rate', args.arrivalRate, 0.001, LOAD_LIMITS.maxRate);
  const timeoutMs = args.timeoutBudget === undefined ? undefined : boundedInt('timeout-budget', args.timeoutBudget, 0, 100, 300_000);
  const drainMs = args.drain === undefined ? undefined : boundedInt('drain', args.drain, 0, 0, 300_000);
  if (args.model !== undefined && args.model !== 'open' && args.model !== 'closed') throw new ConfigError('load: --model must be open or closed');
  return { scenario, durationSec, connections, maxRequests, arrivalRate, timeoutMs, drainMs, ...(args.model ? { loadModel: args.model as 'open' | 'closed' } : {}), ...sharedOptions(args), thresholds: thresholdsOf(args, model), model };
}

/** Options a plan may also set: the flag wins over nothing, the plan over nothing; both given is refused. */
function sharedOptions(args: LoadArgs): Pick<LoadOptions, 'judgeSample' | 'arrivals' | 'seed' | 'thinkTimeMs'> {
  if (args.arrivals !== undefined && args.arrivals !== 'uniform' && args.arrivals !== 'poisson') throw new ConfigError('load: --arrivals must be uniform or poisson');
  return {
    ...(args.judgeSample !== undefined ? { judgeSample: boundedNumber('judge-sample', args.judgeSample, 0, 1) } : {}),
    ...(args.arrivals !== undefined ? { arrivals: args.arrivals as 'uniform' | 'poisson' } : {}),
    ...(args.seed !== undefined ? { seed: parseSeed(args.seed) } : {}),
    ...(args.thinkTime !== undefined ? { thinkTimeMs: boundedInt('think-time', args.thinkTime, 0, 0, 60_000) } : {}),
  };
}

async function planOptionsOf(file: string, args: LoadArgs, io: CliIo): Promise<Omit<LoadOptions, 'profile'>> {
  for (const flag of ['duration', 'connections', 'arrivalRate', 'amount', 'model', 'timeoutBudget', 'drain', 'arrivals', 'seed', 'judgeSample', 'thinkTime'] as const) {
    if (args[flag] !== undefined) throw new ConfigError(`load --plan: --${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} conflicts with the plan; set it in ${file}`);
  }
  const model = await loadModel();
  const opts = planOptions(await readPlan(resolve(io.cwd, file), file), model, file);
  const extra = thresholdsOf(args, model);
  return { ...opts, thresholds: { ...extra, ...opts.thresholds, ...(extra.rules || opts.thresholds?.rules ? { rules: [...(opts.thresholds?.rules ?? []), ...(extra.rules ?? [])] } : {}) } };
}

async function loadHandler(args: LoadArgs, io: CliIo): Promise<number> {
  const scenario = String(args.scenario ?? '');
  if (scenario === 'merge') return mergeHandler(args, io);
  if (scenario === 'coordinate') return coordinateHandler(args, io);
  if (args.plan !== undefined && scenario) throw new ConfigError('load: give a scenario or --plan, not both');
  if (!scenario && args.plan === undefined) throw new ConfigError(`load: give a scenario: ${SCENARIOS.map((s) => s.id).join(', ')}, or --plan plan.yaml (or: load merge a.json b.json ...)`);
  if ((args.files ?? []).length) throw new ConfigError(`load ${scenario}: unexpected arguments ${(args.files as string[]).join(' ')}`);
  const base = args.plan !== undefined ? await planOptionsOf(String(args.plan), args, io) : flagOptions(scenario, args, await loadModel());
  const shard = parseShard(args.shard);
  // The config file's target (profile, target) serves load too; its run knobs (seed, budgets) are the conformance run's.
  const { profiles, target } = await resolveRunOptions({ config: args.config, profile: args.profile, target: args.target }, io.cwd);
  const label = typeof base.scenario === 'string' ? base.scenario : String(args.plan);

  let chosen: Target | undefined;
  let metricsServer: MetricsServer | undefined;
  const metrics = args.metricsPort !== undefined ? loadMetrics() : undefined;
  try {
    if (metrics) {
      metricsServer = await serveMetrics(metrics, parsePort('metrics-port', args.metricsPort) ?? LISTEN_DEFAULTS.port, args.metricsHost ?? LISTEN_DEFAULTS.host);
      io.stderr.write(`metrics: ${metricsServer.url} (Prometheus exposition while the run lasts)\n`);
    }
    chosen = await resolveTarget({ profile: profiles[0], target, env: io.env, cwd: io.cwd });
    const profile = chosen.profile;
    if (chosen.embedded) io.stderr.write(`no --profile or --target: load-testing the embedded reference at ${profile.base_url} (default rate limit)\n`);
    const samples: number[] | undefined = args.rawOut ? [] : undefined;
    const progress = args.progress === false ? undefined : progressPrinter(io.stderr, io.env, label);
    let result: LoadResult;
    const run = args.coordinator !== undefined ? await coordinatedRunner(args, io, runLoad) : runLoad;
    try {
      result = await withCancellation(io, 'sending stops, requests in flight drain, the result is still written', (signal) => run({
        ...base,
        profile,
        ...(shard ? { shard } : {}),
        ...(metrics ? { metrics } : {}),
        ...(samples ? { onSample: (us: number) => void samples.push(us) } : {}),
        allowRemote: args.allowRemote === true,
        ...(progress ? { onProgress: progress.onProgress } : {}),
        signal,
      }));
    } finally {
      progress?.done();
    }
    if (samples) await writeRaw(resolve(io.cwd, String(args.rawOut)), samples);
    if (chosen.embedded) result.notes.push('the embedded reference shares this Node process (one event loop) with the load generator: figures describe the pair; for a server figure run `baas-conform serve` elsewhere and pass --profile');
    return await emit(result, args, io, profile);
  } catch (err) {
    if (err instanceof Error && chosen) err.message = maskSecrets(err.message, chosen.profile);
    throw err;
  } finally {
    await metricsServer?.close();
    await chosen?.close();
  }
}

export const loadCommand: CommandImpl<LoadArgs> = {
  builder: (y: Argv) =>
    coordinateFlags(sharedFlags(y, 'config', 'profile', 'target', 'seed', 'shard', 'timeout-budget', 'report-dir', 'json', 'har', 'port', 'host'))
      .positional('scenario', { type: 'string', choices: [...SCENARIOS.map((s) => s.id), 'merge', 'coordinate'], describe: 'scenario to run, or merge, or coordinate (load coordinate --shards N --plan plan.yaml)' })
      .positional('files', { type: 'string', array: true, describe: 'result files (merge only)' })
      .option('plan', { type: 'string', describe: 'Load plan YAML (scenarios and weights, stages, thresholds; spec/schemas/load-plan.schema.json); see examples/load/plan.yaml' })
      .option('allow-remote', { type: 'boolean', describe: 'Allow a non-loopback target. Only for targets you own or are authorised to load.' })
      .option('duration', { type: 'number', describe: `Seconds of load (default ${LOAD_DEFAULTS.durationSec}, max ${LOAD_LIMITS.maxDurationSec})` })
      .option('amount', { type: 'number', describe: 'At most this many requests (default: 20000 for token-burst, else 1000000); the duration still bounds the run' })
      .option('connections', { type: 'number', describe: `Closed model: concurrent connections (default ${LOAD_DEFAULTS.connections}); open model: most connections (default ${LOAD_DEFAULTS.openConnections}); max ${LOAD_LIMITS.maxConnections}` })
      .option('arrival-rate', { type: 'number', alias: 'rate', describe: 'Open model: send R req/s on a fixed schedule that never waits for responses; latency from the intended send time (default: closed model, or the scenario\'s rate)' })
      .option('model', { type: 'string', choices: ['open', 'closed'], describe: 'Load model (default: open when an arrival rate is known, else closed)' })
      .option('drain', { type: 'number', describe: 'After the load phase, wait this many ms for requests in flight (default: the timeout budget); the rest are reported incomplete' })
      .option('progress', { type: 'boolean', default: true, describe: 'Progress on stderr (--no-progress to silence)' })
      .option('p99-max', { type: 'number', describe: 'Fail when p99 latency (ms) exceeds this' })
      .option('error-rate-max', { type: 'number', describe: 'Fail when the error fraction exceeds this (default 0). Errors: unexpected non-2xx (429 is expected on token-burst), transport errors, timeouts' })
      .option('threshold', { type: 'string', array: true, describe: 'Threshold "[scope:] metric op value [over Ns]", repeatable: "p99 < 500 over 10s", "conformance_errors < 5", "getUserV1: conformance_errors < 1", "ENDPOINT-RESPONSE-SCHEMA: conformance_errors < 1"' })
      .option('conformance-errors-max', { type: 'number', describe: 'Fail when more answers than this break a rule every answer is held to (default 0)' })
      .option('judge-sample', { type: 'number', describe: 'Share of answers judged against the operation schema and the section 7 body (default 1: every answer; 0: off)' })
      .option('arrivals', { type: 'string', choices: ['uniform', 'poisson'], describe: 'Open model: evenly spaced arrivals (default) or a seeded Poisson process' })
      .option('think-time', { type: 'number', describe: 'journey: pause in ms between steps and between a virtual user\'s journeys (default 0)' })
      .option('metrics-port', { type: 'number', describe: 'Serve Prometheus metrics on this port during the run (GET /metrics; 0: any free port)' })
      .option('metrics-host', { type: 'string', describe: 'Address the metrics endpoint listens on (default 127.0.0.1; 0.0.0.0 in a pod)' })
      .option('rps-min', { type: 'number', describe: 'Fail when throughput (req/s) is below this' })
      .option('raw-out', { type: 'string', describe: 'Also write every latency sample (us, one per line) here: to check merged percentiles against raw data' })
      // load: --shard takes 1/n of the rate, connections and requests; --seed seeds a poisson schedule
      // (default 1); --har keeps the answers that are evidence of a broken rule; --report-dir gets
      // load.json and load.html; slower requests than --timeout-budget count as failures.
      .option('out', { type: 'string', alias: 'json-out', describe: 'Write the result JSON here (secrets masked); input for load merge' }),
  run: loadHandler,
};

// `baas-conform load <scenario>`: a bounded load scenario against a target you own (default: the
// embedded reference), verdict against thresholds. `baas-conform load merge a.json b.json ...`:
// add results of several machines (histograms and counts) and recompute the percentiles.
// `load coordinate` and `load --coordinator URL`: a coordinated run (load-coordinate.ts).
// Exit: 0 pass, 1 a threshold or contract failed, 2 configuration, 3 target unreachable, 4 inconclusive
// (a threshold over zero samples, a read-back that could not read: judged nothing, never a pass).
// Progress goes to stderr (one line in place on a terminal, plain periodic lines otherwise).

import type { Argv } from 'yargs';
import { LOAD_DEFAULTS, LOAD_LIMITS, LOAD_SCENARIO_IDS, mergeLoadResults, renderLoad, runLoad, runLoadMode, type LoadFlagValues, type LoadModeResult } from '../../api/load.ts';
import { ConfigError, exitCodeOf } from '../../errors/index.ts';
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

function flagValues(a: LoadArgs): LoadFlagValues {
  const { duration, amount, connections, arrivalRate, model, timeoutBudget, drain, judgeSample, arrivals, seed, thinkTime, p99Max, errorRateMax, rpsMin, conformanceErrorsMax } = a;
  return { duration, amount, connections, arrivalRate, model, timeoutBudget, drain, judgeSample, arrivals, seed, thinkTime, p99Max, errorRateMax, rpsMin, conformanceErrorsMax };
}

function report({ result, profile }: LoadModeResult, args: LoadArgs, io: CliIo): number {
  io.stdout.write(renderLoad(result, { json: args.json, profile }));
  if (args.out && !args.json) io.stdout.write(`result written to ${args.out}\n`);
  return exitCodeOf(result.verdict.outcome ?? (result.verdict.pass ? 'pass' : 'fail'));
}

async function loadHandler(args: LoadArgs, io: CliIo): Promise<number> {
  const scenario = String(args.scenario ?? '');
  if (scenario === 'coordinate') return coordinateHandler(args, io);
  const common = { flags: flagValues(args), thresholds: ([] as unknown[]).concat(args.threshold ?? []).map(String), out: args.out, har: args.har, reportDir: args.reportDir, cwd: io.cwd, log: (line: string) => void io.stderr.write(`${line}\n`) };
  if (scenario === 'merge') return report(await mergeLoadResults({ ...common, files: (args.files ?? []).map(String) }), args, io);
  if (scenario && (args.files ?? []).length) throw new ConfigError(`load ${scenario}: unexpected arguments ${(args.files as string[]).join(' ')}`);
  const runner = args.coordinator !== undefined ? await coordinatedRunner(args, io, runLoad) : undefined;
  const done = await withCancellation(io, 'sending stops, requests in flight drain, the result is still written', (signal) =>
    runLoadMode({
      ...common,
      ...(scenario ? { scenario } : {}),
      ...(args.plan !== undefined ? { plan: String(args.plan) } : {}),
      config: args.config, profile: args.profile, target: args.target, env: io.env, shard: args.shard, allowRemote: args.allowRemote === true,
      ...(args.metricsPort !== undefined ? { metrics: { port: args.metricsPort, host: args.metricsHost } } : {}),
      ...(args.rawOut ? { rawOut: args.rawOut } : {}),
      ...(args.progress === false ? {} : { progress: io.stderr }),
      ...(runner ? { runner } : {}),
      signal,
    }),
  );
  return report(done, args, io);
}

export const loadCommand: CommandImpl<LoadArgs> = {
  builder: (y: Argv) =>
    coordinateFlags(sharedFlags(y, 'config', 'profile', 'target', 'seed', 'shard', 'timeout-budget', 'report-dir', 'json', 'har', 'port', 'host'))
      .positional('scenario', { type: 'string', choices: [...LOAD_SCENARIO_IDS, 'merge', 'coordinate'], describe: 'scenario to run, or merge, or coordinate (load coordinate --shards N --plan plan.yaml)' })
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

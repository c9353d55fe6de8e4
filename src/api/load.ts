// runLoadMode: one load run, from target choice to the files it writes. `baas-conform load` is this
// function plus flag parsing and the exit code; library users call it with the same option names. The
// options are qualified once (src/load/options.ts) and reach the engine from here, never back through
// the CLI.

import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError } from '../errors/index.ts';
// The load engine by its own files, not src/load's barrel: that one loads the coordinator (prom-client)
// too, which only `load coordinate` and a coordinated shard use.
import type { LoadOptions } from '../load/run.ts';
import type { LoadResult, Thresholds } from '../load/types.ts';
import type { Progress } from '../load/engine.ts';
import { mergeResults, readResultFile } from '../load/merge.ts';
import { renderResult, writeResult } from '../load/report.ts';
import { runLoad } from '../load/run.ts';
import { SCENARIOS } from '../load/scenarios.ts';
// The HTML report (handlebars), the HAR and the Prometheus metrics (prom-client, which loads OpenTelemetry's
// API) are imported only when asked for: a load start without them skips their modules.
import type { MetricsServer } from '../load/metrics.ts';
import { PLAN_KNOB_FLAGS, qualifyLoadFlags, type LoadFlagValues } from '../load/options.ts';
import { parseThresholdFlag, planOptions, readPlan } from '../load/plan.ts';
import { progressPrinter, type ProgressStream } from '../load/progress.ts';
import { loadModel, type Model } from '../model/index.ts';
import { LISTEN_DEFAULTS, parsePort, parseShard, resolveRunOptions, type Shard } from '../options/index.ts';
import { maskSecrets, type ResolvedProfile, type TargetProfile } from '../profile/index.ts';
import { resolveTarget, type Target } from './target.ts';

export { LOAD_BOUNDS, LOAD_DEFAULTS, LOAD_LIMITS, qualifyLoadFlags, qualifyLoadRun, type LoadFlagValues, type LoadKnobs, type QualifiedLoad } from '../load/options.ts';
export { runLoad, type LoadOptions, type LoadResult };

type Coordinator = typeof import('../load/coordinator/index.ts');

/** `load coordinate`: the coordinator of `--shards` shard processes (src/load/coordinator). */
export async function coordinate(...args: Parameters<Coordinator['coordinate']>): ReturnType<Coordinator['coordinate']> {
  return (await import('../load/coordinator/index.ts')).coordinate(...args);
}

/** A shard's run, joined to its coordinator (src/load/coordinator). */
export async function coordinatedShardRunner(...args: Parameters<Coordinator['coordinatedShardRunner']>): ReturnType<Coordinator['coordinatedShardRunner']> {
  return (await import('../load/coordinator/index.ts')).coordinatedShardRunner(...args);
}

/** The scenario ids `load <scenario>` accepts. */
export const LOAD_SCENARIO_IDS: readonly string[] = SCENARIOS.map((s) => s.id);

/** Where the result goes besides the returned value. Relative paths resolve against `cwd`. */
export interface LoadOutputs {
  /** The result JSON (secrets masked); input for mergeLoadResults. */
  out?: string;
  /** A HAR of the answers that are evidence of a broken rule. */
  har?: string;
  /** load.json and load.html. */
  reportDir?: string;
}

export interface LoadModeOptions extends LoadOutputs {
  /** A scenario id (LOAD_SCENARIO_IDS); or `plan`. */
  scenario?: string;
  /** A load plan YAML (spec/schemas/load-plan.schema.json); its run knobs may not be given in `flags` too. */
  plan?: string;
  /** Knobs as flag values (duration, amount, connections, ...); bounds: LOAD_BOUNDS. */
  flags?: LoadFlagValues;
  /** Threshold rules "[scope:] metric op value [over Ns]". */
  thresholds?: string[];
  /** Target profile (file or object) or base URL; with neither, the embedded reference. */
  profile?: string | TargetProfile;
  target?: string;
  /** A config file (baas-conform.config.*) whose profile/target serve load too. */
  config?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Shard `i/n`: this worker takes 1/n of the rate, connections and requests. */
  shard?: string | Shard;
  /** Allow a non-loopback target: only a target you own or are authorised to load. */
  allowRemote?: boolean;
  /** Serve Prometheus metrics while the run lasts (port 0: any free port). */
  metrics?: { port?: number; host?: string };
  /** Every latency sample (us, one per line) to this file. */
  rawOut?: string;
  /** Progress lines (in place on a terminal). */
  progress?: ProgressStream;
  /** Notes for the operator (embedded target, metrics URL, report files). */
  log?: (line: string) => void;
  signal?: AbortSignal;
  /** Runs the qualified options (default runLoad; a coordinated shard wraps it). */
  runner?: (options: LoadOptions) => Promise<LoadResult>;
}

export interface LoadModeResult {
  result: LoadResult;
  /** The target profile the run went to (to mask secrets in what the caller prints). */
  profile?: ResolvedProfile;
}

function thresholdsOf(flags: LoadFlagValues, rules: string[], model: Model): Thresholds {
  const parsed = rules.map((t) => parseThresholdFlag(String(t), model));
  return { ...qualifyLoadFlags(flags).thresholds, ...(parsed.length ? { rules: parsed } : {}) };
}

/** Scenario (or plan) and flags -> the run's options: the plan wins for its knobs, flag thresholds add to its own. */
async function baseOptions(o: LoadModeOptions, cwd: string, model: Model): Promise<Omit<LoadOptions, 'profile'>> {
  const flags = o.flags ?? {};
  if (o.plan === undefined) return { scenario: String(o.scenario), ...qualifyLoadFlags(flags).knobs, thresholds: thresholdsOf(flags, o.thresholds ?? [], model), model };
  const given = PLAN_KNOB_FLAGS.filter((k) => flags[k] !== undefined);
  if (given.length) throw new ConfigError(given.map((k) => `load --plan: --${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} conflicts with the plan; set it in ${o.plan}`).join('; '));
  const extra = thresholdsOf(flags, o.thresholds ?? [], model);
  const opts = planOptions(await readPlan(resolve(cwd, o.plan), o.plan), model, o.plan);
  const rules = [...(opts.thresholds?.rules ?? []), ...(extra.rules ?? [])];
  return { ...opts, thresholds: { ...extra, ...opts.thresholds, ...(rules.length ? { rules } : {}) } };
}

async function writeRaw(file: string, samples: number[]): Promise<void> {
  try {
    await writeFile(file, samples.length ? `${samples.join('\n')}\n` : '');
  } catch (err) {
    throw new ConfigError(`load: cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** Writes the result where `outputs` says; returns the report's files when a report directory was given. */
export async function writeLoadOutputs(result: LoadResult, outputs: LoadOutputs, cwd: string, profile?: ResolvedProfile): Promise<{ html: string; json: string } | undefined> {
  if (outputs.out) await writeResult(resolve(cwd, outputs.out), result, profile);
  if (outputs.har) await (await import('../load/har.ts')).writeLoadHar(resolve(cwd, outputs.har), result, profile);
  return outputs.reportDir ? (await import('../load/html.ts')).writeLoadReport(resolve(cwd, outputs.reportDir), result, profile) : undefined;
}

/** The result as the CLI prints it (text or JSON), secrets masked. */
export function renderLoad(result: LoadResult, options: { json?: boolean; profile?: ResolvedProfile } = {}): string {
  return maskSecrets(options.json ? `${JSON.stringify(result, null, 2)}\n` : renderResult(result), options.profile);
}

/** Adds the results of several machines (histograms and counts) and recomputes the percentiles and verdict. */
export async function mergeLoadResults(options: { files: string[]; flags?: LoadFlagValues; thresholds?: string[]; cwd?: string; log?: (line: string) => void } & LoadOutputs): Promise<LoadModeResult> {
  const cwd = options.cwd ?? process.cwd();
  if (options.files.length < 2) throw new ConfigError('load merge: give at least two result files (load merge a.json b.json ...)');
  const inputs = await Promise.all(options.files.map((f) => readResultFile(resolve(cwd, f))));
  const result = mergeResults(inputs, thresholdsOf(options.flags ?? {}, options.thresholds ?? [], await loadModel()));
  const files = await writeLoadOutputs(result, options, cwd);
  if (files) options.log?.(`load report: ${files.html} (JSON: ${files.json})`);
  return { result };
}

/** One load run: qualify the options, choose the target, run (metrics and raw samples alongside), write the files. */
export async function runLoadMode(options: LoadModeOptions): Promise<LoadModeResult> {
  const { env = process.env, cwd = process.cwd(), log = () => {} } = options;
  const scenario = options.scenario ?? '';
  if (options.plan !== undefined && scenario) throw new ConfigError('load: give a scenario or --plan, not both');
  if (!scenario && options.plan === undefined) throw new ConfigError(`load: give a scenario: ${LOAD_SCENARIO_IDS.join(', ')}, or --plan plan.yaml (or: load merge a.json b.json ...)`);
  const base = await baseOptions(options, cwd, await loadModel());
  const shard = typeof options.shard === 'string' ? parseShard(options.shard) : options.shard;
  // The config file's target (profile, target) serves load too; its run knobs (seed, budgets) are the conformance run's.
  const given = typeof options.profile === 'object' ? { profiles: [options.profile], target: options.target } : await resolveRunOptions({ config: options.config, profile: options.profile, target: options.target }, cwd);
  const label = typeof base.scenario === 'string' ? base.scenario : String(options.plan);

  let chosen: Target | undefined;
  let metricsServer: MetricsServer | undefined;
  const metricsModule = options.metrics ? await import('../load/metrics.ts') : undefined;
  const metrics = metricsModule?.loadMetrics();
  try {
    if (metricsModule && metrics) {
      const { serveMetrics } = metricsModule;
      metricsServer = await serveMetrics(metrics, parsePort('metrics-port', options.metrics?.port) ?? LISTEN_DEFAULTS.port, options.metrics?.host ?? LISTEN_DEFAULTS.host);
      log(`metrics: ${metricsServer.url} (Prometheus exposition while the run lasts)`);
    }
    chosen = await resolveTarget({ profile: given.profiles[0], target: given.target, env, cwd });
    const profile = chosen.profile;
    if (chosen.embedded) log(`no --profile or --target: load-testing the embedded reference at ${profile.base_url} (default rate limit)`);
    const samples: number[] | undefined = options.rawOut ? [] : undefined;
    const progress = options.progress ? progressPrinter(options.progress, env, label) : undefined;
    let result: LoadResult;
    try {
      result = await (options.runner ?? runLoad)({
        ...base,
        profile,
        ...(shard ? { shard } : {}),
        ...(metrics ? { metrics } : {}),
        ...(samples ? { onSample: (us: number) => void samples.push(us) } : {}),
        allowRemote: options.allowRemote === true,
        ...(progress ? { onProgress: (p: Progress) => progress.onProgress(p) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } finally {
      progress?.done();
    }
    if (samples) await writeRaw(resolve(cwd, String(options.rawOut)), samples);
    if (chosen.embedded) result.notes.push('the embedded reference shares this Node process (one event loop) with the load generator: figures describe the pair; for a server figure run `baas-conform serve` elsewhere and pass --profile');
    const files = await writeLoadOutputs(result, options, cwd, profile);
    if (files) log(`load report: ${files.html} (JSON: ${files.json})`);
    return { result, profile };
  } catch (err) {
    if (err instanceof Error && chosen) err.message = maskSecrets(err.message, chosen.profile);
    throw err;
  } finally {
    await metricsServer?.close();
    await chosen?.close();
  }
}

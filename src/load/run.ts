// One load run: safety check, scenario setup (undici), the load phase (engine.ts: closed or open
// model, bounded in time and count, nothing in flight dropped), the scenarios' contracts and the
// recovery probe, then the verdict.

import type { SecureContext } from 'node:tls';
import { Agent, type Dispatcher } from 'undici';
import { readTargetCa, targetSecureContext } from '../client/target-ca.ts';
import { ConfigError } from '../errors/index.ts';
import { loadModel, type Model } from '../model/index.ts';
import type { ResolvedProfile } from '../profile/index.ts';
import { answerHooks } from './answers.ts';
import { startContracts } from './contract-run.ts';
import { recoveryProbe } from './recovery.ts';
import { LoadJudge } from './judge.ts';
import { abortWatch } from './abort.ts';
import { mergeConsistency } from './consistency.ts';
import { journeyScenarioRun } from './journey.ts';
import type { LoadMetrics } from './metrics.ts';
import { runEngine, type EngineRequest, type Progress } from './engine.ts';
import { buildResult } from './result.ts';
import { assertTargetAllowed } from './safety.ts';
import { qualifyLoadRun, type LoadKnobs } from './options.ts';
import { SCENARIOS, scenarioById, weightedPicker, type MixEntry, type PreparedScenario, type Scenario } from './scenarios.ts';
import { shapeDurationMs, shapeMax } from './schedule.ts';
import { openSetup, targetPath, type SetupHttp } from './setup.ts';
import type { ConformanceResult, LoadResult, Thresholds } from './types.ts';
import { evaluate } from './verdict.ts';

export { category429, check429 } from './contract.ts';
export { recoveryProbe } from './recovery.ts';
export { countsFrom, round2 } from './result.ts';

/** A load run: its knobs (LoadKnobs, qualified in options.ts), the target and what observes the run. */
export interface LoadOptions extends LoadKnobs {
  /** Scenario id, or several with weights (plans). */
  scenario: string | { id: string; weight: number }[];
  profile: ResolvedProfile;
  thresholds?: Thresholds;
  allowRemote?: boolean;
  /** Aborting it stops sending (as a failed abort_on_fail threshold does); requests in flight drain and the result is kept. A string reason (a coordinator's stop) is the abort's reason in the result. */
  signal?: AbortSignal;
  /** Live Prometheus metrics (--metrics-port): fed per request. */
  metrics?: LoadMetrics;
  /** Recovery probe bounds (token-burst). */
  recovery?: { maxAttempts?: number; maxMs?: number };
  onProgress?: (p: Progress) => void;
  /** Every latency sample (us) as recorded in the overall histogram. */
  onSample?: (us: number) => void;
  /** Given the run's conformance so far once judging starts (a coordinated shard reports answers judged). */
  onJudge?: (conformance: () => ConformanceResult) => void;
  model?: Model;
  /** Most bytes of a setup or read-back answer kept (default 1 MiB); consistency sizes its card owners to it. */
  readBackMaxBytes?: number;
}

export function timeoutBudgetMs(model: Model): number {
  return model.requestTimeoutMs();
}

/** The scenarios that record their writes (consistency): which operations' 2xx bodies they read. */
function observing(preps: PreparedScenario[]): { observeOps?: Set<string>; observe?: (req: EngineRequest, status: number, body: string) => void } {
  const watchers = preps.filter((p) => p.observe && p.observeOps?.length);
  if (!watchers.length) return {};
  return {
    observeOps: new Set(watchers.flatMap((p) => p.observeOps!)),
    observe: (req, status, body) => {
      for (const p of watchers) if (p.observeOps!.includes(req.op)) p.observe!(req, status, body);
    },
  };
}

export function resolveScenario(id: string): Scenario {
  const s = scenarioById(id);
  if (!s) throw new ConfigError(`load: unknown scenario ${JSON.stringify(id)}; one of ${SCENARIOS.map((x) => x.id).join(', ')}`);
  return s;
}

export const CLOSED_LOOP_NOTE =
  'closed model: each connection sends its next request only after the previous one settles, so while the target stalls the requests it would have sent are never sent (coordinated omission); latency runs from the actual send. Use --arrival-rate R for the open model.';

export const OPEN_MODEL_NOTE =
  'open model: intended send times follow the arrival schedule and never wait for responses; latency runs from the intended send time, and sends that went out more than 1 ms after their intended time (no free connection, or the generator itself behind) are counted as late_sends with the delay charged to their latency, never dropped.';

function check(cond: boolean, msg: string): void {
  if (!cond) throw new ConfigError(`load: ${msg}`);
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  // profile.ca_file: the target's private CA, trusted on this run's connections to the target only.
  const secureContext = targetSecureContext(readTargetCa(opts.profile));
  const dispatcher = secureContext ? new Agent({ connect: { secureContext } }) : undefined;
  // The setup session (src/client) is made once the run's options are qualified; closed here whatever happens.
  const sessions: SetupHttp['session'][] = [];
  try {
    return await runLoadWith(opts, dispatcher, secureContext, sessions);
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await dispatcher?.destroy();
  }
}

async function runLoadWith(opts: LoadOptions, dispatcher: Dispatcher | undefined, secureContext: SecureContext | undefined, sessions: SetupHttp['session'][]): Promise<LoadResult> {
  const parts = typeof opts.scenario === 'string' ? [{ id: opts.scenario, weight: 1 }] : opts.scenario;
  check(parts.length > 0, 'give at least one scenario');
  const scenarios = parts.map((p) => ({ scenario: resolveScenario(p.id), weight: p.weight }));
  const first = scenarios[0].scenario;
  const profile = opts.profile;
  assertTargetAllowed(profile.base_url, opts.allowRemote === true);
  const model = opts.model ?? (await loadModel());
  const { modelKind, shape, connections, maxRequests, timeoutMs, drainMs, arrivals, arrivalShiftMs, judgeSample, thinkTimeMs, shard } = qualifyLoadRun(opts, first, timeoutBudgetMs(model));

  const http = openSetup({ profile, timeoutMs, model, ...(dispatcher ? { dispatcher } : {}), ...(opts.readBackMaxBytes !== undefined ? { maxBodyBytes: opts.readBackMaxBytes } : {}) });
  sessions.push(http.session);
  const prepared = [];
  for (const p of scenarios) prepared.push({ ...p, prep: await p.scenario.setup(http) });
  const mix: MixEntry[] = prepared.flatMap(({ prep, weight }) => {
    const total = prep.mix.reduce((n, m) => n + m.weight, 0);
    return prep.mix.map((m) => ({ ...m, weight: (m.weight * weight) / total }));
  });
  const expected = [...new Set(scenarios.flatMap((s) => s.scenario.expectedNon2xx))];
  const contracts = startContracts(model, scenarios.flatMap((s) => s.scenario.contracts));

  const metrics = opts.metrics;
  const judge = judgeSample > 0 ? new LoadJudge(model, judgeSample, metrics?.finding) : undefined;
  if (judge) opts.onJudge?.(() => judge.result());
  const thresholds = opts.thresholds ?? {};
  const thresholdStop = abortWatch(thresholds.rules ?? [], () => judge?.result());
  const signal = opts.signal;
  const stopWhen: typeof thresholdStop = signal ? (timeline, elapsedMs) => (signal.aborted ? (typeof signal.reason === 'string' ? signal.reason : 'cancelled (Ctrl-C)') : thresholdStop?.(timeline, elapsedMs)) : thresholdStop;

  const pick = weightedPicker(mix);
  const prefix = new URL(profile.base_url).pathname.replace(/\/+$/, '');
  const cache = new Map<object, EngineRequest>();
  const next = (): EngineRequest => {
    const r = pick().build();
    if (!prefix) return r;
    // Fixed requests are built once: prefix them once too.
    let out = cache.get(r);
    if (!out) {
      out = { ...r, path: targetPath(profile, r.path) };
      if (cache.size < 64) cache.set(r, out);
    }
    return out;
  };

  const journeyMode = scenarios.some((x) => x.scenario.journey);
  if (journeyMode) check(scenarios.length === 1, 'the journey scenario runs alone, not in a mix');
  const journeyNotes: string[] = [];
  const run = journeyMode
    ? await journeyScenarioRun({ http, kind: modelKind, shape, maxRequests, thinkTimeMs, drainMs, ...(judge ? { judge } : {}), ...(modelKind === 'open' ? { arrivals } : {}), ...(metrics ? { onSettled: metrics.settled, live: metrics.live } : {}), ...(stopWhen ? { stopWhen } : {}), ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) }, journeyNotes)
    : await runEngine({
    origin: new URL(profile.base_url).origin,
    ...(secureContext ? { secureContext } : {}),
    model: modelKind,
    shape,
    maxConnections: connections,
    maxRequests,
    timeoutMs,
    drainMs,
    ...(arrivalShiftMs ? { arrivalShiftMs } : {}),
    ...(modelKind === 'open' ? { arrivals } : {}),
    ...(stopWhen ? { stopWhen } : {}),
    ...(metrics ? { onSettled: metrics.settled, live: metrics.live } : {}),
    next,
    isError: (s) => !(s >= 200 && s < 300) && !expected.includes(s),
    ...answerHooks({ ...(contracts ? { contracts } : {}), ...(judge ? { judge } : {}), ...observing(prepared.map((p) => p.prep)) }),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    ...(opts.onSample ? { onSample: opts.onSample } : {}),
      });

  const recovery = scenarios.some((s) => s.scenario.recoveryProbe) ? [await recoveryProbe(http, opts.recovery)] : undefined;
  const verified = [];
  for (const p of prepared) if (p.prep.verify) verified.push(await p.prep.verify());
  const consistency = mergeConsistency(verified);
  const keepers = prepared.map((p) => p.prep.tokens).filter((t) => t !== undefined);
  for (const k of keepers) await k.settle();
  const notes = [modelKind === 'open' ? OPEN_MODEL_NOTE : CLOSED_LOOP_NOTE];
  notes.push(`Latency percentiles come from an HDR histogram of every request (us resolution); requests past the ${timeoutMs} ms budget are aborted and recorded at their age (>= the budget); throughput is responses over the wall time of the load phase including the drain.`);
  notes.push(...journeyNotes);
  if (recovery?.[0] && recovery[0].recovered && !recovery[0].limited_at_start) notes.push('recovery: the first probe already got 200 (the limit window had reset); recovery time 0 says little.');
  const base = buildResult({
    run,
    scenario: parts.length === 1 ? first.id : parts.map((p) => `${p.id}*${p.weight}`).join('+'),
    sends: prepared.map((p) => p.prep.sends).join(' | '),
    target: profile.base_url,
    config: {
      model: modelKind,
      connections,
      arrival_rate: modelKind === 'open' ? shapeMax(shape) : null,
      start: shape.start,
      stages: shape.stages,
      duration_s: shapeDurationMs(shape) / 1000,
      max_requests: maxRequests,
      timeout_ms: timeoutMs,
      drain_ms: drainMs,
      // The result file (spec/schemas/load-result.schema.json) names the part count `count`.
      shard: shard ? { index: shard.index, count: shard.total } : null,
      ...(modelKind === 'open' ? { arrivals } : {}),
    },
    expectedNon2xx: expected,
    ...(contracts ? { contracts: contracts.results() } : {}),
    ...(judge ? { conformance: judge.result() } : {}),
    ...(consistency ? { consistency } : {}),
    ...(recovery ? { recovery } : {}),
    ...(keepers.length ? { tokenRefreshes: keepers.reduce((n, k) => n + k.refreshes, 0) } : {}),
    notes,
  });
  return { ...base, thresholds, verdict: evaluate(base, thresholds) };
}

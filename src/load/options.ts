// The load mode's options, qualified once (in the manner of fast-check's QualifiedParameters): every
// default and bound of a load run is written here and nowhere else. CLI flags (qualifyLoadFlags), a load
// plan (plan.ts -> LoadOptions) and library callers all reach qualifyLoadRun, which reports every problem
// at once in one ConfigError. Imports stay light: src/options/defaults.ts re-exports LOAD_DEFAULTS.

import { SEED_BOUNDS, SHARE_BOUNDS, TIMEOUT_BUDGET_BOUNDS } from '../options/numbers.ts';
import { OptionProblems, type FlagBounds } from '../options/problems.ts';
import type { Shard } from '../options/shard.ts';
import { constantShape, shapeDurationMs, shapeMax, shardShiftMs, type Shape, type Stage } from './schedule.ts';
import type { LoadModel } from './types.ts';

/** A load run (its seed drives the poisson schedule); the run is bounded by duration and request count. */
export const LOAD_DEFAULTS = {
  seed: 1,
  durationSec: 10,
  /** Closed model: concurrent connections. */
  connections: 10,
  /** Open model: most connections the generator opens unless --connections says otherwise. */
  openConnections: 100,
  /** Open model without a rate from the flags or the scenario. */
  arrivalRate: 100,
  /** Cap on requests per run; the duration caps it too. */
  maxRequests: 1_000_000,
  /** Share of answers judged (1: every answer). */
  judgeSample: 1,
  thinkTimeMs: 0,
  arrivals: 'uniform',
} as const;

/** Upper bounds on every knob: no run is unbounded in time or count. */
export const LOAD_LIMITS = {
  maxDurationSec: 300,
  maxConnections: 1_000,
  maxMaxRequests: 50_000_000,
  maxRate: 1_000_000,
} as const;

/** Every bound of a load knob, flag or plan or library: the one place each range is written. */
export const LOAD_BOUNDS = {
  durationSec: { flag: 'duration', min: 0.1, max: LOAD_LIMITS.maxDurationSec },
  connections: { flag: 'connections', integer: true, min: 1, max: LOAD_LIMITS.maxConnections },
  maxRequests: { flag: 'amount', integer: true, min: 1, max: LOAD_LIMITS.maxMaxRequests },
  arrivalRate: { flag: 'arrival-rate', min: 0.001, max: LOAD_LIMITS.maxRate },
  timeoutMs: { flag: 'timeout-budget', ...TIMEOUT_BUDGET_BOUNDS },
  // The drain defaults to the request budget, so it reaches as far as the longest budget.
  drainMs: { flag: 'drain', integer: true, min: 0, max: TIMEOUT_BUDGET_BOUNDS.max },
  judgeSample: { flag: 'judge-sample', ...SHARE_BOUNDS },
  thinkTimeMs: { flag: 'think-time', integer: true, min: 0, max: 60_000 },
  seed: { flag: 'seed', ...SEED_BOUNDS },
  p99MaxMs: { flag: 'p99-max', min: 0, max: 3_600_000 },
  errorRateMax: { flag: 'error-rate-max', ...SHARE_BOUNDS },
  rpsMin: { flag: 'rps-min', min: 0, max: 1e12 },
  conformanceErrorsMax: { flag: 'conformance-errors-max', integer: true, min: 0, max: 1e9 },
} as const satisfies Record<string, FlagBounds>;

export type LoadKnob = keyof typeof LOAD_BOUNDS;

/**
 * Reads a knob within its LOAD_BOUNDS through the one problem collector: `fallback` when absent or bad.
 * `asFlags`: a problem names the flag; else the knob too (a plan or a library caller set it).
 */
function knobReader(p: OptionProblems, asFlags: boolean) {
  return <T extends number | undefined>(knob: LoadKnob, value: unknown, fallback: T): number | T => {
    const b: FlagBounds = LOAD_BOUNDS[knob];
    return p.num(b, value, asFlags ? `--${b.flag}` : `${knob} (--${b.flag})`) ?? fallback;
  };
}

/** What a scenario contributes to the defaults (scenarios.ts; a type, so this module loads nothing heavy). */
export interface ScenarioDefaults {
  defaultArrivalRate?: number;
  defaultMaxRequests?: number;
}

/** The knobs of a load run (LoadOptions extends them); bounds: LOAD_BOUNDS, defaults: LOAD_DEFAULTS. */
export interface LoadKnobs {
  /** Seconds; ignored when `stages` is given. */
  durationSec?: number;
  /** Closed model: connections. Open model: most connections. */
  connections?: number;
  /** At most this many requests (default: the scenario's, else LOAD_DEFAULTS.maxRequests). */
  maxRequests?: number;
  /** Open model: fixed arrival rate in req/s (intended send times independent of responses). */
  arrivalRate?: number;
  /** @deprecated same as arrivalRate (before 0.2 it capped a closed model). */
  rate?: number;
  /** Ramp stages: targets are arrival rates (open) or connections (closed). */
  stages?: Stage[];
  /** Value the first stage ramps from (default 0). */
  start?: number;
  /** 'open' or 'closed'; default open when an arrival rate (or the scenario's default rate) is known. */
  loadModel?: LoadModel;
  /** Per-request budget; default model.limits.request_timeout (30 s). */
  timeoutMs?: number;
  /** Wait for in-flight requests after the load phase (default: the budget). */
  drainMs?: number;
  /** This worker is shard index/total (1-based): it takes 1/total of the rate, connections and requests. */
  shard?: Shard;
  /** Open model: arrival pattern (default uniform) and the seed of a poisson one. */
  arrivals?: 'uniform' | 'poisson';
  seed?: number;
  /** Share of answers judged by the rules of every answer (1: all; 0: off). */
  judgeSample?: number;
  /** journey: pause between steps (and between a virtual user's journeys), ms. */
  thinkTimeMs?: number;
}

/** A load run's settings after defaults, bounds and this shard's share. */
export interface QualifiedLoad {
  modelKind: LoadModel;
  shape: Shape;
  connections: number;
  maxRequests: number;
  timeoutMs: number;
  drainMs: number;
  arrivals: { kind: 'uniform' | 'poisson'; seed: number };
  arrivalShiftMs: number;
  judgeSample: number;
  thinkTimeMs: number;
  shard?: Shard;
}

const sharePart = (all: number, { index, total }: Shard) => Math.floor(all / total) + (index - 1 < all % total ? 1 : 0);

/** Defaults, bounds (all problems at once) and the shard's share of one load run. */
export function qualifyLoadRun(opts: LoadKnobs, first: ScenarioDefaults, defaultTimeoutMs: number): QualifiedLoad {
  const p = new OptionProblems('load: ');
  const knob = knobReader(p, false);
  const timeoutMs = knob('timeoutMs', opts.timeoutMs ?? defaultTimeoutMs, defaultTimeoutMs);
  const drainMs = knob('drainMs', opts.drainMs ?? timeoutMs, timeoutMs);
  const shard = opts.shard;
  if (shard) p.check(Number.isInteger(shard.total) && shard.total >= 1 && Number.isInteger(shard.index) && shard.index >= 1 && shard.index <= shard.total, 'shard must be i/n with 1 <= i <= n');
  const rate = knob('arrivalRate', opts.arrivalRate ?? opts.rate, undefined);
  const modelKind: LoadModel = opts.loadModel ?? (rate !== undefined || (opts.stages === undefined && first.defaultArrivalRate !== undefined && opts.connections === undefined) ? 'open' : 'closed');
  p.check(modelKind === 'open' || modelKind === 'closed', 'the load model must be open or closed');
  let shape: Shape;
  if (opts.stages?.length) {
    shape = { start: opts.start ?? 0, stages: opts.stages };
  } else {
    const durationSec = knob('durationSec', opts.durationSec ?? LOAD_DEFAULTS.durationSec, LOAD_DEFAULTS.durationSec);
    shape = constantShape(modelKind === 'open' ? (rate ?? first.defaultArrivalRate ?? LOAD_DEFAULTS.arrivalRate) : (opts.connections ?? LOAD_DEFAULTS.connections), durationSec);
  }
  p.check(shapeDurationMs(shape) > 0 && shapeDurationMs(shape) <= LOAD_LIMITS.maxDurationSec * 1000, `stages must last > 0 and <= ${LOAD_LIMITS.maxDurationSec} s in all`);
  if (modelKind === 'open') p.check(shapeMax(shape) <= LOAD_LIMITS.maxRate, `arrival rate must be <= ${LOAD_LIMITS.maxRate}`);
  let connections = knob('connections', modelKind === 'open' ? (opts.connections ?? LOAD_DEFAULTS.openConnections) : Math.ceil(shapeMax(shape)), 1);
  let maxRequests = knob('maxRequests', opts.maxRequests ?? first.defaultMaxRequests ?? LOAD_DEFAULTS.maxRequests, 1);
  const kind = opts.arrivals ?? LOAD_DEFAULTS.arrivals;
  p.check(kind === 'uniform' || kind === 'poisson', '--arrivals must be uniform or poisson');
  const seed = knob('seed', opts.seed ?? LOAD_DEFAULTS.seed, LOAD_DEFAULTS.seed);
  const judgeSample = knob('judgeSample', opts.judgeSample ?? LOAD_DEFAULTS.judgeSample, 0);
  const thinkTimeMs = knob('thinkTimeMs', opts.thinkTimeMs ?? LOAD_DEFAULTS.thinkTimeMs, 0);
  p.throwIfAny();

  // Shards of a poisson schedule draw independent streams (the union of independent Poisson processes is one of the summed rate).
  const arrivals = { kind, seed: shard && kind === 'poisson' ? (seed + 7919 * shard.index) >>> 0 : seed };
  let arrivalShiftMs = 0;
  if (kind === 'uniform' && shard && shard.total > 1 && modelKind === 'open' && shape.stages.length === 1 && shape.start === shape.stages[0].target) {
    arrivalShiftMs = shardShiftMs(shape.start, shard.index, shard.total);
  }
  if (shard && shard.total > 1) {
    // Each worker takes its share: rates scale by 1/n; connections and request caps split as integers.
    const scale = (v: number) => (modelKind === 'open' ? v / shard.total : Math.max(1, sharePart(Math.round(v), shard)));
    shape = { start: scale(shape.start), stages: shape.stages.map((s) => ({ duration_s: s.duration_s, target: scale(s.target) })) };
    connections = Math.max(1, modelKind === 'open' ? sharePart(connections, shard) : Math.ceil(shapeMax(shape)));
    maxRequests = Math.max(1, sharePart(maxRequests, shard));
  }
  return { modelKind, shape, connections, maxRequests, timeoutMs, drainMs, arrivals, arrivalShiftMs, judgeSample, thinkTimeMs, ...(shard ? { shard } : {}) };
}

/** The load flags as the CLI (or a caller holding flag values) gives them. */
export interface LoadFlagValues {
  duration?: number;
  amount?: number;
  connections?: number;
  arrivalRate?: number;
  model?: string;
  timeoutBudget?: number;
  drain?: number;
  judgeSample?: number;
  arrivals?: string;
  seed?: number;
  thinkTime?: number;
  p99Max?: number;
  errorRateMax?: number;
  rpsMin?: number;
  conformanceErrorsMax?: number;
}

/** The run knobs a plan sets: giving one as a flag too is refused (the plan is the record of the run). */
export const PLAN_KNOB_FLAGS = ['duration', 'connections', 'arrivalRate', 'amount', 'model', 'timeoutBudget', 'drain', 'arrivals', 'seed', 'judgeSample', 'thinkTime'] as const;

/** Flag values -> LoadKnobs and the numeric thresholds, every problem at once. */
export function qualifyLoadFlags(f: LoadFlagValues): { knobs: LoadKnobs; thresholds: { p99MaxMs?: number; errorRateMax?: number; rpsMin?: number; conformanceErrorsMax?: number } } {
  const p = new OptionProblems();
  const knob = knobReader(p, true);
  p.check(f.model === undefined || f.model === 'open' || f.model === 'closed', '--model must be open or closed');
  p.check(f.arrivals === undefined || f.arrivals === 'uniform' || f.arrivals === 'poisson', '--arrivals must be uniform or poisson');
  const some = <K extends string>(key: K, v: number | undefined): { [P in K]?: number } => (v === undefined ? {} : ({ [key]: v } as { [P in K]: number }));
  const knobs: LoadKnobs = {
    durationSec: knob('durationSec', f.duration, LOAD_DEFAULTS.durationSec),
    ...some('connections', knob('connections', f.connections, undefined)),
    ...some('maxRequests', knob('maxRequests', f.amount, undefined)),
    ...some('arrivalRate', knob('arrivalRate', f.arrivalRate, undefined)),
    ...some('timeoutMs', knob('timeoutMs', f.timeoutBudget, undefined)),
    ...some('drainMs', knob('drainMs', f.drain, undefined)),
    ...some('judgeSample', knob('judgeSample', f.judgeSample, undefined)),
    ...some('seed', knob('seed', f.seed, undefined)),
    ...some('thinkTimeMs', knob('thinkTimeMs', f.thinkTime, undefined)),
    ...(f.model === 'open' || f.model === 'closed' ? { loadModel: f.model } : {}),
    ...(f.arrivals === 'uniform' || f.arrivals === 'poisson' ? { arrivals: f.arrivals } : {}),
  };
  const thresholds = {
    ...some('p99MaxMs', knob('p99MaxMs', f.p99Max, undefined)),
    ...some('errorRateMax', knob('errorRateMax', f.errorRateMax, undefined)),
    ...some('rpsMin', knob('rpsMin', f.rpsMin, undefined)),
    ...some('conformanceErrorsMax', knob('conformanceErrorsMax', f.conformanceErrorsMax, undefined)),
  };
  p.throwIfAny();
  return { knobs, thresholds };
}

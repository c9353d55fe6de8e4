// Load shape over time: stages (ramp up, hold, ramp down) of arrival rate (open model) or
// connections (closed model). Each stage moves linearly from the previous stage's target to its own.

import { seededRandom } from '../runner/seed.ts';

export interface Stage {
  /** Seconds this stage lasts. */
  duration_s: number;
  /** Arrival rate (req/s, open model) or connections (closed model) reached at the end of the stage. */
  target: number;
}

export interface Shape {
  /** Value at t = 0 (the first stage ramps from here). */
  start: number;
  stages: Stage[];
}

/** A constant shape: `value` for `duration_s` seconds. */
export function constantShape(value: number, duration_s: number): Shape {
  return { start: value, stages: [{ duration_s, target: value }] };
}

export function shapeDurationMs(s: Shape): number {
  return s.stages.reduce((n, st) => n + st.duration_s * 1000, 0);
}

export function shapeMax(s: Shape): number {
  return Math.max(s.start, ...s.stages.map((x) => x.target));
}

/** The shape's value at `tMs` from the start (linear within a stage); the last target after the end. */
export function valueAt(s: Shape, tMs: number): number {
  let from = s.start;
  let at = 0;
  for (const st of s.stages) {
    const len = st.duration_s * 1000;
    if (tMs < at + len) return from + ((st.target - from) * (tMs - at)) / len;
    at += len;
    from = st.target;
  }
  return from;
}

/** Arrival pattern of the open model: evenly spaced (wrk2, k6), or a Poisson process (Gatling's randomised injection). */
export type ArrivalKind = 'uniform' | 'poisson';


/**
 * Intended send times (ms from the start) of an arrival-rate shape, computed up front from the rate
 * alone and never from responses. The k-th arrival is where the integral of the rate reaches the
 * k-th target: k itself (uniform: wrk2's constant throughput generalised to linear ramps, like k6's
 * ramping-arrival-rate), or the k-th sum of seeded exponential(1) draws (poisson: a Poisson process
 * whose intensity follows the shape, by time change). Bounded by `max` arrivals.
 */
export function* arrivalTimes(s: Shape, max: number, pattern: { kind: ArrivalKind; seed: number } = { kind: 'uniform', seed: 1 }): Generator<number> {
  const rnd = pattern.kind === 'poisson' ? seededRandom(pattern.seed) : undefined;
  let k = 0;
  let target = 0;
  const nextTarget = () => (rnd ? target - Math.log(1 - rnd()) : k + 1);
  let from = s.start;
  let at = 0;
  let carried = 0; // arrivals' worth of rate integral carried in from earlier stages
  target = nextTarget();
  for (const st of s.stages) {
    const T = st.duration_s; // seconds
    const r0 = from;
    const r1 = st.target;
    const a = (r1 - r0) / (2 * T);
    const total = r0 * T + a * T * T;
    // Solve a t^2 + r0 t = n for each arrival's target n within this stage.
    for (let n = target - carried; n <= total + 1e-9; n = target - carried) {
      let t: number;
      if (Math.abs(a) < 1e-12) t = n / r0;
      else t = (-r0 + Math.sqrt(r0 * r0 + 4 * a * n)) / (2 * a);
      if (!Number.isFinite(t)) break;
      k++;
      if (k > max) return;
      yield at + t * 1000;
      target = nextTarget();
    }
    carried += total;
    at += T * 1000;
    from = r1;
  }
}

/**
 * Shard i of n (1-based) of a constant arrival rate `rate` runs rate/n and moves its arrivals by this
 * many ms, so that it takes arrivals i, i+n, i+2n ... of the whole schedule: the union of the shards'
 * schedules is the single-machine schedule, not n copies in lockstep.
 */
export function shardShiftMs(rate: number, index: number, count: number): number {
  return -((count - index) * 1000) / rate;
}

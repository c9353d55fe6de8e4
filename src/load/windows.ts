// Windowed thresholds (`p99 < 500 over 10s`): the metric in every window of N seconds, sliding by one
// second over the run's second-by-second buckets; the worst window decides (the highest value for
// `<`/`<=`, the lowest for `>`/`>=`). The buckets carry their own HDR histogram, so the same windows
// come out of a single run, of the sum of shards (load merge) and of the live timeline (abort_on_fail).

import type { Histogram } from 'hdr-histogram-js';
import { decodeHistogram, newHistogram } from './histogram.ts';
import type { LoadResult, ThresholdRule } from './types.ts';

/** Metrics a window can measure. */
export const WINDOW_METRICS = /^(p[0-9.]+|max|mean|error_rate|rps|timeouts)$/;

export interface WindowBucket {
  hist: Histogram | undefined;
  completed: number;
  errors: number;
  timeouts: number;
}

export interface WindowOutcome {
  actual: number | null;
  window?: { from_s: number; to_s: number };
}

/** The metric over buckets [from, to): null when nothing completed in it. */
export function windowValue(metric: string, b: WindowBucket[], from: number, to: number): number | null {
  let completed = 0;
  let errors = 0;
  let timeouts = 0;
  for (let i = from; i < to; i++) {
    completed += b[i]?.completed ?? 0;
    errors += b[i]?.errors ?? 0;
    timeouts += b[i]?.timeouts ?? 0;
  }
  if (metric === 'rps') return Math.round((completed / (to - from)) * 100) / 100;
  if (metric === 'timeouts') return timeouts;
  if (completed === 0) return null; // nothing completed in the window: no latency, no rate
  if (metric === 'error_rate') return errors / completed;
  const h = newHistogram();
  for (let i = from; i < to; i++) if (b[i]?.hist?.totalCount) h.add(b[i].hist!);
  if (!h.totalCount) return null;
  if (metric === 'max') return Math.round(h.getValueAtPercentile(100)) / 1000;
  if (metric === 'mean') return Math.round(h.mean) / 1000;
  const p = /^p([0-9.]+)$/.exec(metric);
  return p ? Math.round(h.getValueAtPercentile(Number(p[1]))) / 1000 : null;
}

/**
 * The worst window of `rule` over `buckets`. `sendSeconds` bounds the windows of `rps` to the sending
 * phase (the drain has no arrivals, so its throughput says nothing); latency windows cover the drain
 * too, where the slowest answers complete. A run shorter than the window is one window.
 */
export function worstOf(rule: Pick<ThresholdRule, 'metric' | 'op' | 'window_s'>, buckets: WindowBucket[], sendSeconds: number): WindowOutcome {
  const w = Math.max(1, Math.round(rule.window_s ?? buckets.length));
  const end = rule.metric === 'rps' ? Math.max(1, Math.min(buckets.length, Math.floor(sendSeconds))) : buckets.length;
  if (end === 0) return { actual: null };
  const higherIsWorse = rule.op === '<' || rule.op === '<=';
  let worst: WindowOutcome = { actual: null };
  const last = Math.max(0, end - w);
  for (let from = 0; from <= last; from++) {
    const to = Math.min(end, from + w);
    const v = windowValue(rule.metric, buckets, from, to);
    if (v === null) continue;
    if (worst.actual === null || (higherIsWorse ? v > worst.actual : v < worst.actual)) worst = { actual: v, window: { from_s: from, to_s: to } };
  }
  return worst;
}

const decoded = new WeakMap<object, WindowBucket[]>();
function bucketsOf(r: Pick<LoadResult, 'timeline'>): WindowBucket[] {
  let b = decoded.get(r.timeline);
  if (!b) {
    b = r.timeline.map((p) => ({ hist: p.hist ? decodeHistogram(p.hist) : undefined, completed: p.completed, errors: p.errors, timeouts: p.timeouts }));
    decoded.set(r.timeline, b);
  }
  return b;
}

/** A windowed threshold of a result (a single run or a merge of shards). */
export function worstWindow(r: Pick<LoadResult, 'timeline' | 'config' | 'aborted'>, rule: ThresholdRule): WindowOutcome {
  return worstOf(rule, bucketsOf(r), r.aborted?.at_s ?? r.config.duration_s);
}

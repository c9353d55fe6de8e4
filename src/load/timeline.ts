// Second-by-second figures of a run (by completion time): requests, status classes, 429 share and a
// per-second HDR histogram for p99. Feeds the progress line and the HTML report.

import type { Histogram } from 'hdr-histogram-js';
import { encodeHistogram, newHistogram } from './histogram.ts';

/** One second's counters, kept while running (SecondBucket) and written out (TimelinePoint). */
export interface SecondCounts {
  /** Intended sends scheduled in this second (open model) or requests sent (closed model). */
  sent: number;
  completed: number;
  ok: number;
  s429: number;
  errors: number;
  timeouts: number;
}

export interface SecondBucket extends SecondCounts {
  hist: Histogram;
}

export interface TimelinePoint extends SecondCounts {
  t: number;
  p99_ms: number;
  /** This second's latencies (HDR, compressed base64, us): windowed thresholds, exact in a merge. */
  hist?: string;
}

export class Timeline {
  readonly buckets: SecondBucket[] = [];
  constructor(private readonly maxSeconds: number) {}

  at(second: number): SecondBucket {
    const s = Math.max(0, Math.min(this.maxSeconds, Math.floor(second)));
    let b = this.buckets[s];
    if (!b) {
      for (let i = this.buckets.length; i <= s; i++) this.buckets[i] ??= { sent: 0, completed: 0, ok: 0, s429: 0, errors: 0, timeouts: 0, hist: newHistogram() };
      b = this.buckets[s];
    }
    return b;
  }

  points(): TimelinePoint[] {
    return this.buckets.map((b, t) => ({
      t,
      sent: b.sent,
      completed: b.completed,
      ok: b.ok,
      s429: b.s429,
      errors: b.errors,
      timeouts: b.timeouts,
      p99_ms: b.hist.totalCount ? Math.round(b.hist.getValueAtPercentile(99)) / 1000 : 0,
      ...(b.hist.totalCount ? { hist: encodeHistogram(b.hist) } : {}),
    }));
  }
}

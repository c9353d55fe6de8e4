// Latency histograms: every response time goes into an HDR histogram (microseconds, 3 significant
// digits, 1 us .. 1 h). The histogram travels in the result file as compressed base64 so results
// from several machines can be added and the percentiles recomputed from the sum: averaging
// percentiles is wrong, adding histograms is not.

import hdr from 'hdr-histogram-js';
import type { Histogram } from 'hdr-histogram-js';

export const HISTOGRAM_ENCODING = 'hdr-histogram-compressed-base64' as const;
export const HISTOGRAM_UNIT = 'us' as const;
const HIGHEST_US = 3_600_000_000;

export function newHistogram(): Histogram {
  // Plain JS (no WebAssembly): nothing to destroy, safe to keep in long-lived objects.
  return hdr.build({ bitBucketSize: 32, lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3, useWebAssembly: false, autoResize: true });
}

export function toMicros(ms: number): number {
  return Math.min(HIGHEST_US, Math.max(1, Math.round(ms * 1000)));
}

export function encodeHistogram(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

export function decodeHistogram(data: string): Histogram {
  const decoded = hdr.decodeFromCompressedBase64(data, 32, false);
  // Copy into a fresh auto-resizing histogram so any two decoded inputs can be added.
  const h = newHistogram();
  h.add(decoded);
  return h;
}

/** Adds an encoded histogram into each target (decoded once, not copied: the coordinator's per-message path). */
export function addEncoded(data: string, ...targets: Histogram[]): number {
  const decoded = hdr.decodeFromCompressedBase64(data, 32, false);
  for (const t of targets) t.add(decoded);
  return decoded.totalCount;
}

export interface LatencySummary {
  /** Milliseconds, from the HDR histogram (3 significant digits). */
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  min: number;
  mean: number;
  /** Number of recorded values. */
  count: number;
}

const ms = (us: number) => Math.round(us) / 1000;

export function summarise(h: Histogram): LatencySummary {
  if (h.totalCount === 0) return { p50: 0, p90: 0, p99: 0, p999: 0, max: 0, min: 0, mean: 0, count: 0 };
  return {
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    p999: ms(h.getValueAtPercentile(99.9)),
    // Highest equivalent value of the top bucket: the same whether h was recorded here or decoded.
    max: ms(h.getValueAtPercentile(100)),
    // Lowest equivalent value of the bottom bucket, for the same reason: the encoded histogram carries
    // buckets, not the exact minimum, so a merge of result files (or of the coordinator's deltas) could
    // not reproduce an exact one; off by up to one bucket (1 us in 2 us buckets past 2.048 ms) otherwise.
    min: ms(h.getValueAtPercentile(0)),
    mean: ms(h.mean),
    count: h.totalCount,
  };
}

/**
 * Closed model only: HdrHistogram's coordinated-omission correction, with the run's median latency as
 * the expected interval between sends on a connection (an estimate: a closed model has no schedule).
 * Each slow response also stands for the sends its connection would have made meanwhile.
 */
export function correctedSummary(h: Histogram): (LatencySummary & { expected_interval_ms: number }) | undefined {
  if (h.totalCount === 0) return undefined;
  const interval = Math.max(1, h.getValueAtPercentile(50));
  const c = newHistogram();
  c.addWhileCorrectingForCoordinatedOmission(h, interval);
  return { ...summarise(c), expected_interval_ms: ms(interval) };
}

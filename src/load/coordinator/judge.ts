// Thresholds on the merged live run, judged as a single node's abortWatch judges its own timeline
// (src/load/abort.ts: the same grace, the same complete seconds, the same windows via windowValue),
// but incrementally: deltas keep arriving for the last second or two only, so a window's value is
// cached until a report touches one of its seconds, and a whole-run window is the running histogram
// minus the seconds not yet complete. A 300 s run is then judged in the time of its last few windows.

import type { Histogram } from 'hdr-histogram-js';
import { newHistogram } from '../histogram.ts';
import type { Timeline } from '../timeline.ts';
import type { ConformanceResult, ThresholdRule } from '../types.ts';
import { conformanceErrors } from '../verdict.ts';
import { windowValue, type WindowOutcome } from '../windows.ts';

const holds = (a: number, op: ThresholdRule['op'], b: number) => (op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b);

export interface LiveOutcome {
  expr: string;
  actual: number | null;
  pass: boolean | null;
}

export class LiveJudge {
  /** `${metric} ${w}` -> from -> the window's end and value. */
  private readonly cache = new Map<string, Map<number, { to: number; v: number | null }>>();

  constructor(
    private readonly rules: ThresholdRule[],
    private readonly timeline: Timeline,
    private readonly overall: Histogram,
    private readonly conformance: ConformanceResult,
  ) {}

  /** Second `s` got new samples: every cached window holding it is stale. */
  touched(s: number): void {
    for (const [key, windows] of this.cache) {
      const w = Number(key.split(' ')[1]);
      for (let from = Math.max(0, s - w + 1); from <= s; from++) windows.delete(from);
    }
  }

  /** [0, seconds): the running histogram minus the seconds not yet complete (as windowValue over them). */
  private wholeRun(metric: string, seconds: number): number | null {
    const b = this.timeline.buckets;
    if (!/^(p[0-9.]+|max|mean)$/.test(metric)) return windowValue(metric, b, 0, seconds);
    let completed = 0;
    for (let i = 0; i < seconds; i++) completed += b[i]?.completed ?? 0;
    if (completed === 0) return null;
    const h = newHistogram();
    h.add(this.overall);
    for (let i = seconds; i < b.length; i++) if (b[i].hist.totalCount) h.subtract(b[i].hist);
    if (!h.totalCount) return null;
    if (metric === 'max') return Math.round(h.getValueAtPercentile(100)) / 1000;
    if (metric === 'mean') return Math.round(h.mean) / 1000;
    return Math.round(h.getValueAtPercentile(Number(metric.slice(1)))) / 1000;
  }

  /** worstOf over the first `seconds` complete seconds, windows cached. */
  private worst(rule: ThresholdRule, seconds: number): WindowOutcome {
    const b = this.timeline.buckets;
    const length = Math.min(seconds, b.length);
    if (rule.window_s === undefined) {
      const end = rule.metric === 'rps' ? Math.max(1, Math.min(length, seconds)) : length;
      if (end === 0) return { actual: null };
      const actual = this.wholeRun(rule.metric, end);
      return actual === null ? { actual } : { actual, window: { from_s: 0, to_s: end } };
    }
    const w = Math.max(1, Math.round(rule.window_s));
    const end = rule.metric === 'rps' ? Math.max(1, Math.min(length, seconds)) : length;
    if (end === 0) return { actual: null };
    const key = `${rule.metric} ${w}`;
    let windows = this.cache.get(key);
    if (!windows) this.cache.set(key, (windows = new Map()));
    const higherIsWorse = rule.op === '<' || rule.op === '<=';
    let worst: WindowOutcome = { actual: null };
    for (let from = 0; from <= Math.max(0, end - w); from++) {
      const to = Math.min(end, from + w);
      let hit = windows.get(from);
      if (!hit || hit.to !== to) windows.set(from, (hit = { to, v: windowValue(rule.metric, b, from, to) }));
      const v = hit.v;
      if (v !== null && (worst.actual === null || (higherIsWorse ? v > worst.actual : v < worst.actual))) worst = { actual: v, window: { from_s: from, to_s: to } };
    }
    return worst;
  }

  private measure(rule: ThresholdRule, seconds: number): number | null {
    if (rule.metric === 'conformance_errors') return conformanceErrors({ conformance: this.conformance }, rule);
    return this.worst(rule, seconds).actual;
  }

  /** abortWatch's verdict on the merged run at `elapsedMs`: why to stop every shard, or undefined. */
  abortReason(elapsedMs: number): string | undefined {
    const seconds = Math.floor(elapsedMs / 1000);
    for (const rule of this.rules) {
      if (!rule.abort_on_fail || elapsedMs / 1000 < (rule.grace_s ?? 0)) continue;
      if (rule.metric !== 'conformance_errors') {
        if (seconds < 1 || rule.operation) continue;
        if ((rule.op === '>' || rule.op === '>=') && rule.window_s !== undefined && seconds < rule.window_s) continue;
      }
      const actual = this.measure(rule, seconds);
      if (actual !== null && !holds(actual, rule.op, rule.value)) {
        return `abort_on_fail threshold ${rule.expr} failed at ${(elapsedMs / 1000).toFixed(1)} s (actual ${Number.isInteger(actual) ? actual : actual.toFixed(3)}; grace ${rule.grace_s ?? 0} s)`;
      }
    }
    return undefined;
  }

  /** Every run-wide threshold on the merged data so far (per-operation ones are judged on the final results). */
  outcomes(elapsedMs: number): LiveOutcome[] {
    const seconds = Math.max(1, Math.min(this.timeline.buckets.length, Math.floor(elapsedMs / 1000)));
    return this.rules.map((rule) => {
      const actual = rule.operation && rule.metric !== 'conformance_errors' ? null : this.measure(rule, seconds);
      return { expr: rule.expr, actual, pass: actual === null ? null : holds(actual, rule.op, rule.value) };
    });
  }
}

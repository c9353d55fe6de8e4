// The merged run as the coordinator sees it while it goes: the shards' HDR deltas added second by
// second into one Timeline (the same structure a single-node run keeps), requests by operation and
// status, findings by rule, late sends. Thresholds are judged on it by the same code a single node
// uses (abortWatch's rules over windowValue, judge.ts), so a coordinated abort means what a
// single-node abort means.

import { Counter, Gauge, Registry } from 'prom-client';
import { addEncoded, newHistogram } from '../histogram.ts';
import { Timeline } from '../timeline.ts';
import type { ConformanceResult, ThresholdRule } from '../types.ts';
import { LiveJudge, type LiveOutcome } from './judge.ts';
import type { Report } from './protocol.ts';

/** The bucket Timeline.at puts a second's samples in (it clamps to the run's last second). */
const maxSecondOf = (t: Timeline) => t.buckets.length - 1;

export class LiveRun {
  readonly timeline: Timeline;
  readonly overall = newHistogram();
  readonly requests = new Map<string, Map<string, number>>();
  readonly conformance: ConformanceResult = { sample: 1, answers: 0, judged: 0, findings: 0, by_rule: {}, by_operation: {}, exchanges: {} };
  late = 0;
  readonly registry = new Registry();
  private readonly requestCounter: Counter;
  private readonly findingCounter: Counter;
  private readonly lateCounter: Counter;
  private readonly judge: LiveJudge;

  constructor(
    maxSeconds: number,
    rules: ThresholdRule[],
    shardStates: () => Record<string, number>,
    private readonly elapsedMs: () => number,
  ) {
    this.timeline = new Timeline(maxSeconds);
    this.judge = new LiveJudge(rules, this.timeline, this.overall, this.conformance);
    const registers = [this.registry];
    this.requestCounter = new Counter({ name: 'baas_load_requests_total', help: 'Settled requests of every shard by operation and outcome (HTTP status, or timeout, transport_error, incomplete)', labelNames: ['operation', 'status'], registers });
    this.findingCounter = new Counter({ name: 'baas_load_conformance_findings_total', help: 'Answers of every shard that break a rule every answer is held to, by rule and operation', labelNames: ['rule', 'operation'], registers });
    this.lateCounter = new Counter({ name: 'baas_load_late_sends_total', help: 'Open model: sends of every shard more than 1 ms after their intended time', registers });
    const overall = this.overall;
    new Gauge({
      name: 'baas_load_latency_seconds',
      help: 'Latency of the merged run so far (HDR histogram of every shard), by quantile',
      labelNames: ['quantile'],
      registers,
      collect() {
        for (const q of [0.5, 0.9, 0.99, 0.999]) this.set({ quantile: String(q) }, overall.totalCount ? overall.getValueAtPercentile(q * 100) / 1e6 : 0);
      },
    });
    new Gauge({
      name: 'baas_coordinator_shards',
      help: 'Shards by state: joined, reporting, silent (no report for 5 intervals and 10 s), final (result received)',
      labelNames: ['state'],
      registers,
      collect() {
        for (const [state, n] of Object.entries(shardStates())) this.set({ state }, n);
      },
    });
    const outcomes = () => this.outcomes();
    new Gauge({
      name: 'baas_load_threshold_value',
      help: 'Each threshold of the plan measured on the merged run so far (windowed: the worst window); NaN when nothing was measured',
      labelNames: ['threshold'],
      registers,
      collect() {
        for (const o of outcomes()) this.set({ threshold: o.expr }, o.actual ?? Number.NaN);
      },
    });
    new Gauge({
      name: 'baas_load_threshold_pass',
      help: 'Each threshold of the plan on the merged run so far: 1 holds, 0 breached, NaN nothing measured yet',
      labelNames: ['threshold'],
      registers,
      collect() {
        for (const o of outcomes()) this.set({ threshold: o.expr }, o.pass === null ? Number.NaN : o.pass ? 1 : 0);
      },
    });
  }

  /** Adds one report's deltas (already checked by parseReport). */
  apply(r: Report): void {
    for (const d of r.seconds) {
      const b = this.timeline.at(d.s);
      if (d.hist) addEncoded(d.hist, b.hist, this.overall);
      this.judge.touched(Math.min(d.s, maxSecondOf(this.timeline)));
      b.completed += d.completed;
      b.errors += d.errors;
      b.timeouts += d.timeouts;
    }
    for (const [op, byStatus] of Object.entries(r.requests)) {
      let m = this.requests.get(op);
      if (!m) this.requests.set(op, (m = new Map()));
      for (const [status, n] of Object.entries(byStatus)) {
        m.set(status, (m.get(status) ?? 0) + n);
        this.requestCounter.inc({ operation: op, status }, n);
      }
    }
    const c = this.conformance;
    for (const [rule, byOp] of Object.entries(r.findings)) {
      for (const [op, n] of Object.entries(byOp)) {
        c.by_rule[rule] = (c.by_rule[rule] ?? 0) + n;
        (c.by_operation[op] ??= {})[rule] = (c.by_operation[op]?.[rule] ?? 0) + n;
        c.findings += n;
        this.findingCounter.inc({ rule, operation: op }, n);
      }
    }
    c.judged += r.judged;
    c.answers += r.answers;
    this.late += r.late_sends;
    this.lateCounter.inc(r.late_sends);
  }

  /** The abort_on_fail verdict of the merged run now: why to stop every shard, or undefined. */
  abortReason(): string | undefined {
    return this.judge.abortReason(this.elapsedMs());
  }

  /** Every run-wide threshold on the merged data so far (per-operation ones are judged on the final results). */
  outcomes(): LiveOutcome[] {
    return this.judge.outcomes(this.elapsedMs());
  }

  /** Total requests by outcome, for the summary line. */
  requestTotal(): number {
    let n = 0;
    for (const m of this.requests.values()) for (const v of m.values()) n += v;
    return n;
  }
}

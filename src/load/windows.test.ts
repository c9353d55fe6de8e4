// Windowed thresholds (`p99 < 500 over 10s`: the worst window decides) and abort_on_fail with a grace
// period. A run whose p99 is fine overall but bad for one stretch fails; the merge of shards gives the
// verdict of one run on the same samples; an abort_on_fail rule stops sending once it fails.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { loadModel } from '../model/index.ts';
import { resolveProfile } from '../profile/index.ts';
import type { EngineRun } from './engine-types.ts';
import { newOpStats } from './engine-types.ts';
import { newHistogram } from './histogram.ts';
import { mergeResults, runLoad } from './index.ts';
import { parseRule, planOptions } from './plan.ts';
import { buildResult } from './result.ts';
import { stallTarget, type StallTarget } from './testing.ts';
import { Timeline } from './timeline.ts';
import type { LoadResult, Thresholds } from './types.ts';
import { evaluate, measure } from './verdict.ts';

/** A result built from (second, us) samples, as the engine would record them; started at `t0`. */
function synthetic(samples: [number, number][], seconds: number): LoadResult {
  const timeline = new Timeline(seconds + 2);
  const overall = newHistogram();
  const op = newOpStats();
  for (const [sec, us] of samples) {
    const b = timeline.at(sec);
    b.hist.recordValue(us);
    b.completed++;
    b.ok++;
    overall.recordValue(us);
    op.hist.recordValue(us);
    op.status[200] = (op.status[200] ?? 0) + 1;
  }
  const run: EngineRun = { started_at: new Date('2026-01-01T00:00:00.000Z'), wall_ms: seconds * 1000, send_ms: seconds * 1000, overall, ops: new Map([['getUserV1', op]]), timeline, sent: samples.length, late: { count: 0, max_ms: 0, total_ms: 0, waited_for_connection: 0 }, incomplete: [], max_in_flight: 1 };
  const config = { model: 'open' as const, connections: 10, arrival_rate: 100, start: 100, stages: [{ duration_s: seconds, target: 100 }], duration_s: seconds, max_requests: 1e6, timeout_ms: 30_000, drain_ms: 0, shard: null };
  const base = buildResult({ run, scenario: 'user-read', sends: 'getUserV1', target: 'http://127.0.0.1:1', config, expectedNon2xx: [], notes: [] });
  return { ...base, thresholds: {}, verdict: { pass: true, reasons: [] } };
}

describe('windowed thresholds', () => {
  // 30 s at 100 answers/s of 5 ms, except 10 s (t = 12..21) where 3 answers in 100 take 800 ms: overall
  // 1% of all answers are slow (p99 fine at 5 ms); every 10 s window over that stretch has 3% slow.
  const samples: [number, number][] = [];
  for (let s = 0; s < 30; s++) for (let i = 0; i < 100; i++) samples.push([s, s >= 12 && s < 22 && i % 100 < 3 ? 800_000 : 5_000]);
  const rules = ['p99 < 500', 'p99 < 500 over 10s', 'p99 < 500 over 5s', 'rps > 90 over 10s'].map((x) => parseRule(x));
  const t: Thresholds = { rules };

  it('p99 fine overall but bad for 10 s: the windowed rule fails, naming the worst window; the merge of shards gives the same verdict', () => {
    const single = synthetic(samples, 30);
    const v = evaluate(single, t);
    const byExpr = Object.fromEntries(v.thresholds!.map((o) => [o.expr, o]));
    expect(byExpr['p99 < 500']).toMatchObject({ pass: true });
    expect(single.latency_ms.p99).toBeLessThan(500);
    const w = byExpr['p99 < 500 over 10s'];
    expect(w.pass).toBe(false);
    expect(w.actual).toBeGreaterThanOrEqual(800);
    // The first worst window: 10 s that overlap the slow stretch enough to put p99 there.
    expect(w.window!.to_s - w.window!.from_s).toBe(10);
    expect(w.window!.to_s).toBeGreaterThan(12);
    expect(w.window!.from_s).toBeLessThan(22);
    expect(byExpr['p99 < 500 over 5s'].pass).toBe(false);
    expect(byExpr['rps > 90 over 10s']).toMatchObject({ pass: true, actual: 100 });
    expect(v.reasons.join('\n')).toMatch(/p99 < 500 over 10s breached \(actual 80\d(\.\d+)? in the window \d+-\d+ s\)/);

    // Two shards of the same samples (alternate answers), same start: one global verdict, identical.
    const a = synthetic(samples.filter((_, i) => i % 2 === 0), 30);
    const b = synthetic(samples.filter((_, i) => i % 2 === 1), 30);
    const merged = mergeResults([a, b], t);
    expect(merged.verdict.thresholds).toEqual(v.thresholds);
    expect(merged.verdict.pass).toBe(v.pass);
    // Each shard alone sees the same stretch, but the merge decides on the sum.
    expect(merged.timeline.map((p) => p.p99_ms)).toEqual(single.timeline.map((p) => p.p99_ms));
  });

  it('load merge --threshold gives the global windowed verdict from result files (the per-second histograms travel in load.json)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bc-win-'));
    const parts = [samples.filter((_, i) => i % 2 === 0), samples.filter((_, i) => i % 2 === 1)].map((p) => synthetic(p, 30));
    await Promise.all(parts.map((p, i) => writeFile(join(dir, `part-${i}.json`), JSON.stringify(p))));
    const merge = async (...threshold: string[]) => {
      const c = captureIo({ env: {}, cwd: dir });
      const code = await main(['load', 'merge', 'part-0.json', 'part-1.json', ...threshold.flatMap((t) => ['--threshold', t])], c.io);
      return { code, out: c.out() };
    };
    const overall = await merge('p99 < 500');
    expect(overall.code, overall.out).toBe(0);
    const windowed = await merge('p99 < 500', 'p99 < 500 over 10s');
    expect(windowed.code).toBe(1);
    expect(windowed.out).toMatch(/FAIL\s+p99 < 500 over 10s \(actual 80\d(\.\d+)?, worst window \d+-\d+ s\)/);
  });

  it('a latency metric over no recorded latency (every attempt a transport error) has no sample: null, inconclusive, not 0 ms and a pass', () => {
    const empty = synthetic([], 2);
    const failedOnly = { ...empty, counts: { ...empty.counts, attempts: 3, transport_errors: 3, errors: 3 } };
    for (const metric of ['p99', 'max', 'mean']) expect(measure(failedOnly, metric, 2), metric).toBeNull();
    expect(measure(failedOnly, 'error_rate', 2)).toBe(1);
    const v = evaluate({ ...failedOnly, operations: { getUserV1: { ...failedOnly.operations.getUserV1, counts: { ...failedOnly.counts } } } }, { rules: [parseRule('p99 < 500', 'getUserV1')] });
    expect(v.thresholds![0]).toMatchObject({ actual: null, pass: false, inconclusive: true });
    expect(v.inconclusive).toEqual(['INCONCLUSIVE: threshold getUserV1: p99 < 500 judged nothing because getUserV1 recorded no sample for it (no request, or no latency: every attempt a transport error)']);
  });

  it('a steady run passes the same windowed rules (the verdict is not a window artefact)', () => {
    const steady = synthetic(samples.map(([s]) => [s, 5_000] as [number, number]), 30);
    expect(evaluate(steady, t).pass).toBe(true);
  });

  it('refuses windows on what has none, and windows scoped to an operation', async () => {
    expect(() => parseRule('conformance_errors < 1 over 10s')).toThrow(/has no window/);
    expect(() => parseRule('p99 < 5 over 10s', 'getUserV1')).toThrow(/whole run/);
    expect(() => parseRule('p99 < 5 over 0s')).toThrow(/1\.\.300/);
    const model = await loadModel();
    const o = planOptions({ scenarios: [{ name: 'user-read' }], arrival_rate: 10, duration: 1, thresholds: { run: [{ threshold: 'p99 < 200 over 2s', abort_on_fail: true, grace: 3 }] } }, model, 'p.yaml');
    expect(o.thresholds!.rules![0]).toMatchObject({ window_s: 2, abort_on_fail: true, grace_s: 3 });
  });
});

describe('abort_on_fail', () => {
  let t: StallTarget;
  let started = 0;
  beforeAll(async () => {
    // From 1 s into the load on, every answer to a read takes 400 ms.
    t = await stallTarget({ delayFor: () => (started && Date.now() - started > 1000 ? 400 : 0) });
  });
  afterAll(() => t.close());
  const profile = () => resolveProfile({ base_url: t.base_url, clients: [{ client_id: 'a', client_secret: 'secret-a' }] }, { env: {} });

  it('stops sending once a rule fails after its grace period; the verdict says when and why', async () => {
    started = Date.now();
    const rule = { ...parseRule('p99 < 200 over 1s'), abort_on_fail: true, grace_s: 1 };
    // A 60 s schedule: the abort (due about 2-3 s in) ends the run early however busy the machine is, so
    // "before the schedule ended" is the behaviour asserted, not a wall-time bound.
    const r = await runLoad({ scenario: 'user-read', profile: profile(), arrivalRate: 50, durationSec: 60, thresholds: { rules: [rule] } });
    expect(r.aborted).toBeDefined();
    expect(r.aborted!.at_s).toBeGreaterThanOrEqual(1);
    expect(r.counts.attempts).toBeLessThan(3000); // the whole schedule was 3000 sends: stopped before its end, counted, not timed
    expect(r.verdict.pass).toBe(false);
    expect(r.verdict.reasons.join('\n')).toMatch(/aborted at .* s: abort_on_fail threshold p99 < 200 over 1s failed/);
  });

  it('within its grace period a failing rule does not abort; the verdict still fails on it', async () => {
    started = Date.now();
    const rule = { ...parseRule('p99 < 200 over 1s'), abort_on_fail: true, grace_s: 100 };
    const r = await runLoad({ scenario: 'user-read', profile: profile(), arrivalRate: 50, durationSec: 2, thresholds: { rules: [rule] } });
    expect(r.aborted).toBeUndefined();
    expect(r.verdict.pass).toBe(false);
    expect(r.verdict.reasons.join('\n')).toMatch(/p99 < 200 over 1s breached/);
  });
});

// The coordinator's incremental judge says what a single node's abortWatch says on the same samples:
// deltas from several shards, arriving late and out of order, judged at many moments, against one
// Timeline holding every sample. A cached window that a late delta should have refreshed is caught.
import { describe, expect, it } from 'vitest';
import { abortWatch } from '../abort.ts';
import { encodeHistogram, newHistogram } from '../histogram.ts';
import { parseRule } from '../plan.ts';
import { Timeline } from '../timeline.ts';
import type { ThresholdRule } from '../types.ts';
import { LiveRun } from './live.ts';
import type { Report } from './protocol.ts';

const rules: ThresholdRule[] = ['p99 < 40 over 3s', 'error_rate < 0.2 over 2s', 'mean < 30', 'rps > 5 over 2s', 'max < 90'].map((e) => ({ ...parseRule(e), abort_on_fail: true, grace_s: 0 }));

/** A deterministic run: 3 shards, 20 s, second 12 slow on shard 2, second 15 erroring on shards 2 and 3. */
function samples(): { shard: number; s: number; us: number; error: boolean }[] {
  const out = [];
  let x = 12345;
  for (let s = 0; s < 20; s++)
    for (let shard = 1; shard <= 3; shard++)
      for (let i = 0; i < 30; i++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        const slow = shard === 2 && s === 12 && i < 5;
        out.push({ shard, s, us: slow ? 95_000 + (x % 10_000) : 1000 + (x % 20_000), error: shard >= 2 && s === 15 });
      }
  return out;
}

function report(shard: number, seq: number, part: { s: number; us: number; error: boolean }[]): Report {
  const by = new Map<number, { h: ReturnType<typeof newHistogram>; completed: number; errors: number }>();
  for (const p of part) {
    let b = by.get(p.s);
    if (!b) by.set(p.s, (b = { h: newHistogram(), completed: 0, errors: 0 }));
    b.h.recordValue(p.us);
    b.completed++;
    if (p.error) b.errors++;
  }
  return { shard, seq, at_ms: 0, seconds: [...by].map(([s, b]) => ({ s, hist: encodeHistogram(b.h), completed: b.completed, errors: b.errors, timeouts: 0 })), requests: {}, findings: {}, judged: 0, answers: 0, late_sends: 0 };
}

describe('LiveJudge (the coordinator) and abortWatch (one node) agree', () => {
  it('at every moment of the run, whatever order the shards report in', () => {
    const all = samples();
    let now = 0;
    const live = new LiveRun(40, rules, () => ({}), () => now);
    const single = new Timeline(40);
    const watch = abortWatch(rules, () => undefined)!;
    let seq = 0;
    const disagreements: string[] = [];
    for (let s = 0; s < 21; s++) {
      // Each shard reports the first two thirds of second s now, and the rest of second s - 1 (late).
      for (let shard = 1; shard <= 3; shard++) {
        const part = all.filter((p) => p.shard === shard && ((p.s === s && p.us % 3 !== 0) || (p.s === s - 1 && p.us % 3 === 0)));
        live.apply(report(shard, ++seq, part));
        for (const p of part) {
          const b = single.at(p.s);
          b.hist.recordValue(p.us);
          b.completed++;
          if (p.error) b.errors++;
        }
      }
      for (const at of [s * 1000 + 250, s * 1000 + 900]) {
        now = at;
        const a = live.abortReason();
        const b = watch(single, at);
        if (a !== b) disagreements.push(`${at} ms: ${a} vs ${b}`);
      }
    }
    expect(disagreements).toEqual([]);
    // And it did judge something: the slow second and the erroring one both breach.
    now = 21_000;
    expect(live.outcomes().filter((o) => o.pass === false).map((o) => o.expr)).toEqual(expect.arrayContaining(['p99 < 40 over 3s', 'error_rate < 0.2 over 2s', 'max < 90']));
  });

  it('a late delta into an already judged second changes the verdict (no stale window)', () => {
    let now = 5000;
    const live = new LiveRun(40, [rules[0]], () => ({}), () => now);
    const fast = (s: number) => ({ s, us: 1000, error: false });
    for (let s = 0; s < 5; s++) live.apply(report(1, s + 1, Array.from({ length: 50 }, () => fast(s))));
    expect(live.abortReason()).toBeUndefined();
    live.apply(report(2, 1, Array.from({ length: 10 }, () => ({ s: 1, us: 70_000, error: false }))));
    now = 5100;
    expect(live.abortReason()).toMatch(/p99 < 40 over 3s failed/);
  });
});

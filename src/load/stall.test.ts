// Issue 8, "nothing in flight vanishes": a target that stalls now and then past the budget must fail
// the run in both models, with the stall in p99.9 and max, every sent request accounted for.
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { runLoad, type LoadResult } from './index.ts';
import { stallTarget, type StallTarget } from './testing.ts';

const BUDGET = 1000;
const sentIn = (r: LoadResult) => r.timeline.reduce((n, p) => n + p.sent, 0);

// Every describe and test here side by side: each run has a target of its own and is a second or two of
// sending, mostly waiting on stalls and budgets.
const opened: StallTarget[] = [];
afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
});

describe.concurrent('load: a target that stalls 1 GET in 50 for 1.5 s (budget 1 s)', () => {
  // A target per run: the stalls are counted from its first GET, the 2nd GET first, so every run meets
  // one whatever the machine's speed (4 connections send 4 at once; the 200/s schedule is counted).
  // Every 50th GET across runs needed 50 in 1.5 s, more than a loaded machine answered.
  const target = async () => {
    const t = await stallTarget({ delayFor: (n) => (n % 50 === 2 ? 1500 : 0) });
    opened.push(t);
    return t;
  };

  it.each([
    ['closed', { connections: 4 }],
    ['open', { arrivalRate: 200 }],
  ] as const)('%s model: FAIL, timeouts recorded at >= the budget, p99.9 and max show the stall', async (mode, o) => {
    const t = await target();
    const r = await runLoad({ scenario: 'user-read', profile: t.profile, durationSec: 1.5, timeoutMs: BUDGET, ...o });
    expect(r.mode).toBe(mode);
    expect(r.verdict.pass).toBe(false);
    expect(r.verdict.reasons.join('\n')).toMatch(/exceeded the 1000 ms timeout budget/);
    expect(r.counts.timeouts).toBeGreaterThan(0);
    expect(r.latency_ms.max).toBeGreaterThanOrEqual(BUDGET);
    expect(r.latency_ms.p999).toBeGreaterThanOrEqual(BUDGET);
    expect(r.operations.getUserV1.counts.timeouts).toBe(r.counts.timeouts);
    // Every request sent is accounted for: answered, timed out or incomplete.
    expect(r.counts.attempts).toBe(sentIn(r));
    expect(r.latency_ms.count).toBe(r.counts.attempts);
    expect(r.counts.incomplete).toBe(0);
    // Throughput over the wall time of the load phase, which includes the drain.
    expect(r.duration_s).toBeGreaterThanOrEqual(1.5);
    expect(r.rps).toBeCloseTo(r.counts.responses / r.duration_s, 0);
    if (mode === 'closed') {
      // The coordinated-omission estimate adds the sends a stalled connection never made.
      const c = r.corrected_latency_ms!;
      expect(c.count).toBeGreaterThan(r.latency_ms.count);
      expect(c.p99).toBeGreaterThanOrEqual(BUDGET / 2);
    } else expect(r.corrected_latency_ms).toBeUndefined();
  });

  it('CLI: closed and open runs exit 1 and name their model', async () => {
    const runs = [['--connections', '4'], ['--arrival-rate', '200']].map(async (extra) => {
      const t = await target();
      const c = captureIo({ env: {} });
      const code = await main(['load', 'user-read', '--target', t.base_url, '--duration', '1.5', '--timeout-budget', String(BUDGET), ...extra], { ...c.io, env: { BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a' } });
      return { extra, code, out: c.out() };
    });
    for (const { extra, code, out } of await Promise.all(runs)) {
      expect(code).toBe(1);
      expect(out).toMatch(extra[0] === '--connections' ? /closed model/ : /open model/);
      expect(out).toMatch(/timeouts [1-9]/);
      expect(out).not.toMatch(/secret-a/);
    }
  });
});

describe.concurrent('load: requests still in flight when the drain ends', () => {
  it('are reported incomplete with their age, and fail the run', async () => {
    // After the first 3 every GET hangs for 5 s: at the end of the 1 s load phase every connection
    // waits (counted, not timed: each of the 3 connections sends again at once on its first answer).
    const t = await stallTarget({ delayFor: (n) => (n > 3 ? 5000 : 0) });
    try {
      const r = await runLoad({ scenario: 'user-read', profile: t.profile, durationSec: 1, connections: 3, timeoutMs: 3000, drainMs: 100 });
      expect(r.counts.incomplete).toBeGreaterThan(0);
      expect(r.incomplete.length).toBe(r.counts.incomplete);
      for (const x of r.incomplete) {
        expect(x.op).toBe('getUserV1');
        expect(x.age_ms).toBeGreaterThan(0);
      }
      expect(r.counts.attempts).toBe(sentIn(r));
      expect(r.verdict.pass).toBe(false);
      expect(r.verdict.reasons.join('\n')).toMatch(/still unanswered after the 100 ms drain/);
    } finally {
      await t.close();
    }
  });
});

describe.concurrent('load: open model charges waiting to latency and drops nothing', () => {
  it('100 req/s on one connection against a 50 ms target: all 100 sent, late sends counted, latency from the intended time', async () => {
    const t = await stallTarget({ delayFor: () => 50 });
    try {
      const r = await runLoad({ scenario: 'user-read', profile: t.profile, durationSec: 1, arrivalRate: 100, connections: 1, timeoutMs: 20_000 });
      expect(r.mode).toBe('open');
      expect(r.counts.attempts).toBe(100);
      expect(r.counts.responses).toBe(100);
      expect(t.gets()).toBe(100);
      expect(r.late_sends.count).toBeGreaterThan(50);
      expect(r.late_sends.waited_for_connection).toBeGreaterThan(50);
      expect(r.late_sends.waited_for_connection).toBeLessThanOrEqual(r.late_sends.count);
      // 1 connection serves ~20/s, so the last intended sends wait ~4 s: charged to their latency.
      expect(r.latency_ms.max).toBeGreaterThan(2000);
      expect(r.late_sends.max_ms).toBeGreaterThan(2000);
      expect(r.verdict.pass).toBe(true);
    } finally {
      await t.close();
    }
  });
});

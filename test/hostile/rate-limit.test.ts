// The whole suite against the embedded reference behind a proxy that answers 429 storms (Retry-After
// 1, section 7 body). Section 8 shows no numeric limits, so a target may rate limit any endpoint: a
// 429 is never the answer of a check that does not test rate limiting. A storm that ends is waited
// out and changes no verdict; one that never ends blocks exactly the checks that need the stormed
// path, naming the rate limit and no rule, once the client's wait bound is spent.

import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/model/index.ts';
import { BUDGET_MS, describeBad, pathsOf, runBehindProxy } from './harness.ts';

// The two runs side by side: each has its own reference and proxy, and mostly waits out Retry-After
// (about 10 s of CPU for both, 30-70 s of wall one after the other).
describe.concurrent('429 storms on the API (the token endpoint and the test-control API are left alone)', () => {
  it('a storm that ends (each stormed request line answers 429 nine times in a row) is waited out: every check passes', async () => {
    const run = await runBehindProxy({ misbehaviour: 'storm-429', every: 9, maxHits: 6 });
    expect(run.error, String(run.error)).toBeUndefined();
    expect(run.unhandled.map(String)).toEqual([]);
    const stormed = run.exchanges.filter((x) => x.response?.status === 429);
    expect(stormed.length, 'the proxy stormed nothing').toBeGreaterThan(0);
    // Retry-After 1 s three times is two budgets of 1.5 s: the client waited past the budget of one
    // request, as section 8's per-request timeout allows, instead of taking the 429 as the answer.
    expect(Math.max(...stormed.map((x) => x.attempt))).toBeGreaterThanOrEqual(3);
    // Every stormed request was finally answered by the reference: its last attempt is not a 429.
    expect(run.bad.map((r) => `${r.checkId} ${r.verdict}`), describeBad(run)).toEqual([]);
    expect(run.result!.summary.failed).toBe(0);
  }, 300_000);

  it('a storm that never ends blocks the checks that need the stormed path as RATE_LIMITED, naming no rule; the rest pass', async () => {
    // Whole seconds (Retry-After 1 s per wait), two request budgets: the client waits past the budget
    // of one request before it gives up. The bound need not cover the reference's token window: the
    // token endpoint is never stormed, the run's own token traffic stays far under its limits (tokens
    // are cached), and the only token 429s come from the rate-limit checks' probes, which send without
    // retry and recover by themselves. Each blocked check costs one bound, so it is kept short.
    const waitMs = Math.ceil((2 * BUDGET_MS) / 1000) * 1000;
    // One operation that few checks need, so the run stays short: the wallet list.
    const op = (await loadModel()).operation('listWallets');
    const line = `${op.method.toUpperCase()} ${op.path}`;
    // Sixteen checks at once, not run's four: each blocked check waits out its whole bound of Retry-After
    // (the client counts the seconds it sleeps, not the clock), whatever else is in flight, and with four
    // at once the ~30 blocked checks queued behind each other for 28 s. (The storm that ends keeps four:
    // its nine 429s in a row per request line must meet one request's retries, not sixteen requests.)
    const run = await runBehindProxy({ misbehaviour: 'storm-429', every: 1, maxHits: 1, stormFollowUps: Infinity, only: (l) => l === line, rateLimitWaitMs: waitMs, concurrency: 16 });
    expect(run.error, String(run.error)).toBeUndefined();
    expect(run.unhandled.map(String)).toEqual([]);
    expect(run.proxy.hits.length).toBeGreaterThan(0);
    const stormedPath = op.path;
    expect(new Set(run.proxy.hits)).toEqual(new Set([line]));
    expect(run.bad.length, 'no check needed the stormed path').toBeGreaterThan(0);
    for (const r of run.bad) {
      expect(r.verdict, `${r.checkId}\n${describeBad(run)}`).toBe('blocked');
      expect(r.blocked?.message ?? '', r.checkId).toMatch(/^RATE_LIMITED: .*answered 429 \(rate limiting\)/);
      expect(r.blocked?.rules, r.checkId).toEqual([]);
      expect(pathsOf(r), r.checkId).toContain(stormedPath);
    }
    // Retry-After 1 s within the wait bound: one wait per second of it, one attempt more, then the client gives up.
    const onStormed = run.exchanges.filter((x) => x.response?.status === 429);
    expect(Math.max(...onStormed.map((x) => x.attempt))).toBe(waitMs / 1000 + 1);
  }, 300_000);
});

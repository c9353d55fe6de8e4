// The whole suite with a hostile test-control API (the sandbox's /__control behind the proxy): its
// answers drip past the budget, come back as a 1e6-deep array or as a 429 storm. The run must end
// and be crash-free, and a check that needed the control API must be BLOCKED by that control
// operation with the cause (suites/kit/control.ts), never failed: a sandbox fault is no verdict on
// the partner API (no CHECK_ERROR, no partner-API rule named).

import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/events/index.ts';
import { describeBad, pathsOf, runBehindProxy, type HostileRun } from './harness.ts';

function debug(name: string, run: HostileRun): void {
  if (process.env.HOSTILE_DEBUG) console.log(`${name}: ${Math.round(run.ms)} ms, hits ${run.proxy.hits.join(' | ')}, ${run.result?.summary.passed}/${run.result?.summary.total} passed, error ${String(run.error ?? '')}\n${describeBad(run)}`);
}

function expectControlFault(run: HostileRun, cause: string): void {
  // Ended (a hang is the test timeout's) without an error: no wall-time bound, a busy machine stretches it.
  expect(run.error, String(run.error)).toBeUndefined();
  expect(run.unhandled.map(String)).toEqual([]);
  expect(run.proxy.hits.length).toBeGreaterThan(0);
  expect(run.bad.length, describeBad(run)).toBeGreaterThan(0);
  const hostile = new Set(run.proxy.hits.map((h) => h.split(' ')[1]));
  // A check waiting for a webhook another check's control call would have provoked may skip
  // ("none arrived"): a skip is no verdict against anyone; fails and blocks must carry the cause.
  const judged = run.bad.filter((r) => r.verdict !== 'skip');
  expect(judged.length, describeBad(run)).toBeGreaterThan(0);
  for (const r of judged) {
    const shown = (x: CheckResult) => `${x.checkId} ${x.verdict} ${x.failure?.cause ?? ''} ${x.failure?.message ?? x.blocked?.message ?? x.reason ?? ''}`;
    expect(r.failure?.cause, shown(r)).not.toBe('CHECK_ERROR');
    expect(r.failure?.cause, shown(r)).not.toBe('CHECK_TIMEOUT');
    const text = `${r.failure?.cause ?? ''} ${r.failure?.message ?? ''} ${r.blocked?.message ?? ''} ${r.reason ?? ''}`;
    expect(text, shown(r)).toContain(cause);
    // The blame is the control call: the check is blocked by it (a refusal and a transport failure
    // alike), and the blocking answer came from a path that got a hostile answer.
    expect(r.verdict, shown(r)).toBe('blocked');
    expect(r.blocked?.operation, shown(r)).toMatch(/^control:/);
    expect(r.failure, shown(r)).toBeUndefined();
    expect(pathsOf(r).some((p) => hostile.has(p)), shown(r)).toBe(true);
  }
}

describe('the full suite with a hostile test-control API', () => {
  it('control answers dripping past the budget: TIMEOUT blamed on the control call', async () => {
    const run = await runBehindProxy({ side: 'control', misbehaviour: 'drip', every: 3, maxHits: 5 });
    debug('control drip', run);
    expectControlFault(run, 'TIMEOUT');
  }, 120_000);

  it('a 429 storm on the control API that never ends: the check is blocked by that control operation as RATE_LIMITED', async () => {
    // A storm that ends is waited out (test/hostile/rate-limit.test.ts); one that never does ends each
    // control call at the client's wait bound.
    const run = await runBehindProxy({ side: 'control', misbehaviour: 'storm-429', every: 3, maxHits: 5, stormFollowUps: Infinity, rateLimitWaitMs: 3000 });
    debug('control 429', run);
    expectControlFault(run, 'RATE_LIMITED');
    expect(run.bad.filter((r) => r.verdict === 'blocked').length, describeBad(run)).toBeGreaterThan(0);
  }, 120_000);

  it('control answers nested 1e6 deep: BODY_TOO_DEEP blamed on the control call', async () => {
    const run = await runBehindProxy({ side: 'control', misbehaviour: 'deep-json', every: 3, maxHits: 5 });
    debug('control deep', run);
    expectControlFault(run, 'BODY_TOO_DEEP');
  }, 120_000);
});

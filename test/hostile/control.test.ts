// The whole suite with a hostile test-control API (the sandbox's /__control behind the proxy): its
// answers drip past the budget or come back as a 1e6-deep array. The run must stay bounded and
// crash-free, and a check that needed the control API must say so (blocked by, or failed on, the
// control call with the transport cause), never CHECK_ERROR, and name no partner-API rule for it.

import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/events/index.ts';
import { describeBad, pathsOf, RUN_BOUND_MS, runBehindProxy, type HostileRun } from './harness.ts';

function debug(name: string, run: HostileRun): void {
  if (process.env.HOSTILE_DEBUG) console.log(`${name}: ${Math.round(run.ms)} ms, hits ${run.proxy.hits.join(' | ')}, ${run.result?.summary.passed}/${run.result?.summary.total} passed, error ${String(run.error ?? '')}\n${describeBad(run)}`);
}

function expectControlFault(run: HostileRun, cause: string): void {
  expect(run.error, String(run.error)).toBeUndefined();
  expect(run.ms).toBeLessThan(RUN_BOUND_MS);
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
    // The blame is the control call: a blocked check names it; a failed one points at a control path.
    if (r.verdict === 'blocked') expect(r.blocked?.operation, shown(r)).toMatch(/^control:/);
    else {
      expect(pathsOf(r).some((p) => hostile.has(p)), shown(r)).toBe(true);
      // A sandbox-control fault breaks no partner-API rule: none is named (the runner lists the
      // check's rules unnamed), in particular not the JSON-body or timeout rule.
      expect(r.failure?.rulesNamed, shown(r)).not.toBe(true);
      expect(r.failure?.rules, shown(r)).not.toContain('GENERAL-TRANSPORT-JSON');
      expect(r.failure?.rules, shown(r)).not.toContain('LIMIT-REQUEST-TIMEOUT');
    }
  }
}

describe('the full suite with a hostile test-control API', () => {
  it('control answers dripping past the budget: TIMEOUT blamed on the control call', async () => {
    const run = await runBehindProxy({ side: 'control', misbehaviour: 'drip', every: 3, maxHits: 5 });
    debug('control drip', run);
    expectControlFault(run, 'TIMEOUT');
  }, 120_000);

  it('a 429 storm on the control API: the check is blocked by that control operation', async () => {
    const run = await runBehindProxy({ side: 'control', misbehaviour: 'storm-429', every: 3, maxHits: 5 });
    debug('control 429', run);
    expectControlFault(run, '429');
    expect(run.bad.filter((r) => r.verdict === 'blocked').length, describeBad(run)).toBeGreaterThan(0);
  }, 120_000);

  it('control answers nested 1e6 deep: BODY_TOO_DEEP blamed on the control call', async () => {
    const run = await runBehindProxy({ side: 'control', misbehaviour: 'deep-json', every: 3, maxHits: 5 });
    debug('control deep', run);
    expectControlFault(run, 'BODY_TOO_DEEP');
  }, 120_000);
});

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadChecks } from './index.ts';
import { loadModel } from '../src/model/index.ts';
import type { Check } from '../src/checks/types.ts';
// Static imports: a missing reference or runner fails this file instead of skipping it.
import { startReference } from '../src/reference/index.ts';
import { runChecks } from '../src/runner/index.ts';
import { resolveProfile } from '../src/profile/index.ts';

describe('the check catalogue', () => {
  it('has unique ids, existing rule ids, and areas from the list', async () => {
    const model = await loadModel();
    const checks = await loadChecks();
    const ids = new Set<string>();
    for (const c of checks) {
      expect(ids.has(c.id), c.id).toBe(false);
      ids.add(c.id);
      expect(c.rules.length, c.id).toBeGreaterThan(0);
      for (const r of c.rules) expect(() => model.rule(r), `${c.id} names ${r}`).not.toThrow();
      expect(c.id.startsWith(`${c.area}.`), c.id).toBe(true);
    }
    const covered = new Set(checks.flatMap((c) => c.rules));
    expect(model.rules.filter((r) => r.testable && !covered.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(model.rules.filter((r) => !r.testable && covered.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('marks as safe only checks that create nothing: under --safe, the model-driven guard refuses none of their requests', async () => {
    // The guard (src/client/safe-guard.ts) holds every request against x-mutates / x-moves-money; a
    // safe-marked check that creates anything fails with SAFE_MODE_REFUSED (src/runner/safe-run.test.ts).
    const ref = await startReference();
    try {
      const profile = resolveProfile(ref.profile, { env: {} });
      const outcome = await runChecks({ profile, model: await loadModel(), seed: 20240601, numRuns: 5, concurrency: 4, safe: true }, await loadChecks(), []);
      const ran = outcome.results.filter((r) => r.verdict !== 'skip');
      expect(ran.length).toBeGreaterThan(0);
      expect(ran.filter((r) => r.verdict === 'fail' && r.failure.cause === 'SAFE_MODE_REFUSED').map((r) => r.checkId)).toEqual([]);
    } finally {
      await ref.close();
    }
  }, 120_000);
});

describe('all checks against the reference server', () => {
  let ref: { profile: any; close(): Promise<void> };
  let outcome: any;
  let checks: Check[];

  beforeAll(async () => {
    // Per client above 2 x per IP + 1: limits.token.rate-limit-split can then tell the two limits apart.
    ref = await startReference({ rateLimit: { perIp: 60, perClient: 150, windowMs: 2000 } });
    const profile = resolveProfile(ref.profile, { env: {} });
    checks = await loadChecks();
    outcome = await runChecks({ profile, model: await loadModel(), seed: 20240601, numRuns: 20, concurrency: 4 }, checks, []);
  }, 600_000);

  afterAll(async () => {
    await ref?.close();
  });

  it('passes every check', () => {
    // The only allowed skip: TLS cannot be checked on a plain-HTTP loopback target.
    const bad = outcome.results
      .filter((r: any) => r.verdict !== 'pass' && !(r.checkId === 'limits.transport.tls' && r.verdict === 'skip'))
      .map((r: any) => `${r.checkId}: ${r.verdict} ${r.reason ?? ''}${r.failure ? `${r.failure.message}${r.failure.counterexample ? `\n${r.failure.counterexample}` : ''}` : ''}`);
    expect(bad).toEqual([]);
  });

  it('leaves no testable rule uncovered', () => {
    const uncovered = outcome.rules.filter((r: any) => r.verdict === 'uncovered').map((r: any) => r.id);
    expect(uncovered).toEqual([]);
    expect(checks.length).toBeGreaterThan(100);
    expect(outcome.results.length).toBe(checks.length);
  });
});

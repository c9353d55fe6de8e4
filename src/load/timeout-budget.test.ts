// The timeout-budget scenario: a weighted read/write mix at an arrival rate, every request inside the
// budget, per-operation figures, tokens refreshed the section 8 buffer before expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProfile } from '../profile/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { loadModel } from '../model/index.ts';
import { runLoad } from './index.ts';
import { stallTarget } from './testing.ts';

const MIX = ['createRecipientV2', 'createUserV2', 'createVirtualCard', 'getConfig', 'getUserV1', 'getUserV2', 'listCards', 'listWallets'];

// The three side by side: each runs seconds of arrivals at a fixed rate against a target of its own (the
// reference, or a stall target), mostly waiting; a few requests a second load no loop.
describe.concurrent('load: timeout-budget', () => {
  let ref: ReferenceServer;
  beforeAll(async () => {
    ref = await startReference();
  });
  afterAll(() => ref.close());

  it('passes against the reference, open model, every operation answered 2xx with its own percentiles', async () => {
    const r = await runLoad({ scenario: 'timeout-budget', profile: resolveProfile(ref.profile, { env: {} }), durationSec: 2, arrivalRate: 60 });
    expect(r.mode).toBe('open');
    expect(r.config.timeout_ms).toBe(30_000);
    expect(Object.keys(r.operations).sort()).toEqual(MIX);
    for (const op of MIX) {
      const o = r.operations[op];
      expect(o.counts['2xx'], op).toBe(o.counts.attempts);
      expect(o.latency_ms.count, op).toBe(o.counts.attempts);
      expect(o.latency_ms.p99, op).toBeGreaterThan(0);
    }
    expect(r.counts.attempts).toBe(120);
    expect(r.verdict).toMatchObject({ pass: true, reasons: [] });
  });

  it('fails when one operation stalls past the budget, and the stall shows in that operation', async () => {
    // Only the v2 user read stalls (every 5th), 1.5 s against a 1 s budget.
    let n = 0;
    const v2 = (await loadModel()).operations.get('getUserV2')!.path;
    const t = await stallTarget({ delayFor: (_i, req) => (req.url === v2 && ++n % 5 === 0 ? 1500 : 0) });
    try {
      const r = await runLoad({ scenario: 'timeout-budget', profile: t.profile, durationSec: 2, arrivalRate: 60, timeoutMs: 1000 });
      expect(r.verdict.pass).toBe(false);
      expect(r.operations.getUserV2.counts.timeouts).toBeGreaterThan(0);
      expect(r.operations.getUserV2.latency_ms.max).toBeGreaterThanOrEqual(1000);
      // The stalling operation carries the most timeouts (others only time out if the machine itself lags).
      const worst = Object.entries(r.operations).sort(([, a], [, b]) => b.counts.timeouts - a.counts.timeouts)[0][0];
      expect(worst).toBe('getUserV2');
    } finally {
      await t.close();
    }
  });

  it('refreshes the S2S token the model\'s buffer before expires_at', async () => {
    const model = await loadModel();
    const buffer = model.limits.token_refresh_buffer!.value!;
    // Tokens valid for buffer + 1 s: the first is inside the buffer after 1 s, so the run refreshes it.
    // Long-lived tokens are not refreshed. The two runs at once, each on its own target.
    const [t, t2] = await Promise.all([stallTarget({ delayFor: () => 0, tokenTtlSec: buffer + 1 }), stallTarget({ delayFor: () => 0 })]);
    try {
      const [r, long] = await Promise.all([
        runLoad({ scenario: 'timeout-budget', profile: t.profile, durationSec: 2.5, arrivalRate: 40, model }),
        runLoad({ scenario: 'timeout-budget', profile: t2.profile, durationSec: 1, arrivalRate: 20, model }),
      ]);
      expect(r.token_refreshes).toBeGreaterThanOrEqual(1);
      expect(r.verdict.pass).toBe(true);
      expect(long.token_refreshes).toBe(0);
    } finally {
      await Promise.all([t.close(), t2.close()]);
    }
  });
});

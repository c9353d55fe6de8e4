// The consistency scenario: under a concurrent arrival-rate mix of creations, every acknowledged write
// is read back. Passes against the reference; fails against a proxy that loses 1 write in 200.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProfile } from '../profile/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { runLoad } from './index.ts';
import { lossyProxy, type LossyProxy } from './testing.ts';

describe('load: consistency', () => {
  let ref: ReferenceServer;
  let proxy: LossyProxy;
  beforeAll(async () => {
    ref = await startReference();
    proxy = await lossyProxy(ref.profile.base_url, 200);
  });
  afterAll(async () => {
    await proxy.close();
    await ref.close();
  });

  it('passes against the reference: every acknowledged user, card and recipient reads back as sent (recipients through the profile\'s getRecipient)', async () => {
    const r = await runLoad({ scenario: 'consistency', profile: resolveProfile(ref.profile, { env: {} }), arrivalRate: 100, durationSec: 1.5 });
    const c = r.consistency!;
    expect(r.verdict.reasons).toEqual([]);
    for (const op of ['createUserV2', 'createVirtualCard']) {
      expect(c.by_operation[op].acknowledged).toBeGreaterThan(20);
      expect(c.by_operation[op]).toMatchObject({ missing: 0, differs: 0, unchecked: 0, verified: c.by_operation[op].acknowledged });
    }
    expect(c.by_operation.createRecipientV2).toMatchObject({ missing: 0, differs: 0, unchecked: 0, verified: c.by_operation.createRecipientV2.acknowledged });
    expect(r.counts['2xx']).toBe(r.counts.attempts);
  });

  it('recipients without a read path (no profile.operations.getRecipient) are unchecked, not lost', async () => {
    const { getRecipient: _g, ...operations } = ref.profile.operations ?? {};
    const r = await runLoad({ scenario: 'consistency', profile: resolveProfile({ ...ref.profile, operations }, { env: {} }), arrivalRate: 100, durationSec: 1.5 });
    const c = r.consistency!;
    expect(c.by_operation.createRecipientV2.acknowledged).toBeGreaterThan(0);
    expect(c.by_operation.createRecipientV2.unchecked).toBe(c.by_operation.createRecipientV2.acknowledged);
    expect(c.notes.join('\n')).toMatch(/getRecipient/);
  });

  it('fails against a target that loses 1 write in 200 under concurrency, naming the lost writes', async () => {
    const profile = resolveProfile({ ...ref.profile, base_url: proxy.base_url }, { env: {} });
    const r = await runLoad({ scenario: 'consistency', profile, arrivalRate: 200, durationSec: 2.5 });
    const c = r.consistency!;
    expect(proxy.lost()).toBeGreaterThanOrEqual(1);
    const missing = c.by_operation.createUserV2.missing + c.by_operation.createVirtualCard.missing;
    expect(missing).toBe(proxy.lost());
    expect(r.counts.errors).toBe(0); // every answer was a 2xx: only reading back shows the loss
    expect(r.verdict.pass).toBe(false);
    expect(r.verdict.reasons.join('\n')).toMatch(new RegExp(`consistency: ${missing} of \\d+ acknowledged write\\(s\\) lost`));
    expect(c.problems[0].problem).toMatch(/acknowledged, then (getUserV1 .* answered HTTP 4\d\d|absent from listCards)/);
  });

  it('fails when a write is stored with another value than the caller set (read back different)', async () => {
    const altering = await lossyProxy(ref.profile.base_url, 1_000_000, { alterCardEvery: 25 });
    try {
      const profile = resolveProfile({ ...ref.profile, base_url: altering.base_url }, { env: {} });
      const r = await runLoad({ scenario: 'consistency', profile, arrivalRate: 100, durationSec: 1.5, thresholds: { conformanceErrorsMax: 1000 } });
      expect(r.consistency!.by_operation.createVirtualCard.differs).toBeGreaterThanOrEqual(1);
      expect(r.verdict.reasons.join('\n')).toMatch(/read back with other values than the caller set \(createVirtualCard \d+\); first: .*card_data.card_name ".*\(altered\)" != sent/);
    } finally {
      await altering.close();
    }
  });

  it('accepts every reading the spec allows on the read: no email or country, the address in another letter case, either alias name', async () => {
    const lenient = await lossyProxy(ref.profile.base_url, 1_000_000, {
      rewrite: (m, p, json) => {
        if (m !== 'GET' || p !== '/api/v1/user' || !json || typeof json !== 'object') return json;
        const { email: _e, country: _c, ...rest } = json as Record<string, unknown>;
        return { ...rest, user_address: String(rest.user_address).toUpperCase().replace(/^0X/, '0x'), wallet_address: String(rest.wallet_address).toUpperCase().replace(/^0X/, '0x') };
      },
    });
    try {
      const profile = resolveProfile({ ...ref.profile, base_url: lenient.base_url }, { env: {} });
      const r = await runLoad({ scenario: 'consistency', profile, arrivalRate: 60, durationSec: 1, judgeSample: 0 });
      expect(r.consistency!.by_operation.createUserV2.verified).toBe(r.consistency!.by_operation.createUserV2.acknowledged);
      expect(r.verdict.reasons).toEqual([]);
    } finally {
      await lenient.close();
    }
  });
});

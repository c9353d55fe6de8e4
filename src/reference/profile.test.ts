import { describe, expect, it } from 'vitest';
import { resolveProfile } from '../profile/index.ts';
import { FAULT_POINTS } from './faults.ts';
import { DEFAULT_OPERATION_PATHS, startReference } from './index.ts';

describe('reference profile', () => {
  it('validates against the profile schema and publishes the unspecified paths', async () => {
    const ref = await startReference();
    try {
      const p = resolveProfile(JSON.parse(JSON.stringify(ref.profile)), { env: {} });
      expect(p.clients).toHaveLength(2);
      expect(p.chain_id).toBe('84532');
      expect(p.operations).toMatchObject(DEFAULT_OPERATION_PATHS);
      expect(p.webhook_paths).toEqual({ bank_account: '/v2/webhooks/bank-accounts' });
      expect(p.idp).toEqual({ enabled: true });
      expect(p.clients[0].client_id).not.toBe(p.clients[1].client_id);
    } finally {
      await ref.close();
    }
  });

  it('generates fresh credentials per start', async () => {
    const [a, b] = await Promise.all([startReference(), startReference()]);
    try {
      expect(a.profile.clients[0].client_secret).not.toBe(b.profile.clients[0].client_secret);
      expect(a.profile.s2s_signing_secret).not.toBe(b.profile.s2s_signing_secret);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('starts with every fault point switched on', async () => {
    const ref = await startReference({ faults: new Set(FAULT_POINTS) });
    await ref.close();
  });
});

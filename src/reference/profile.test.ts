import { request } from 'undici';
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
      expect(p.webhook_paths).toEqual({ bank_account: '/v2/webhooks/bank-accounts', wallets: '/v2/webhooks/wallets', balances: '/v2/webhooks/balances', card_limit: '/v2/webhooks/card-limits' });
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

  it('starts with every fault point switched on, and the faults take effect', async () => {
    const ref = await startReference({ faults: new Set(FAULT_POINTS) });
    try {
      const c = ref.profile.clients[0];
      const res = await request(`${ref.profile.base_url}/api/v1/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: c.client_id, client_secret: c.client_secret, grant_type: 'not-a-grant-type' }),
      });
      const body = (await res.body.json()) as Record<string, unknown>;
      // token.accept-any-grant-type and token.missing-token-type are both on.
      expect(res.statusCode).toBe(200);
      expect(body.access_token).toBeTypeOf('string');
      expect(body).not.toHaveProperty('token_type');
    } finally {
      await ref.close();
    }
  });
});

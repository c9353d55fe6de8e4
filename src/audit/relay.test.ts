// Webhooks on their way to the client's receiver: each delivered twice (the repeat late), with both
// names of each alias pair of its path and an unknown extra field, as the plan says.

import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startReceiver } from './bank/index.ts';
import { loadModel } from '../model/index.ts';
import { startAudit } from './index.ts';

describe('audit webhook relay', () => {
  it('delivers each webhook twice, late, with both alias names and an unknown field, and records the answers', async () => {
    const model = await loadModel();
    const receiver = await startReceiver();
    const plan = { token_bursts: [], retry_after: [], other_burst: null, stall: null, webhooks: { duplicate: true, late_ms: 200, extra_field: 'x_unknown' } };
    const audit = await startAudit({ plan, webhookUrl: receiver.url });
    try {
      const p = audit.profile;
      const t = await request(`${p.base_url}${model.operation('createToken').path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...p.credentials, grant_type: 'client_credentials' }) });
      const { access_token } = (await t.body.json()) as { access_token: string };
      const create = model.aliasRule('ALIAS-USER-CREATE-WALLET-ADDRESS-V1');
      const u = await request(`${p.base_url}${model.operation('createUserV1').path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}`, [model.auth.chain_header]: p.chain_id },
        body: JSON.stringify({ email: `r${randomBytes(3).toString('hex')}@example.com`, country: 'DE', [create.new]: `0x${randomBytes(20).toString('hex')}` }),
      });
      expect(u.statusCode).toBe(200);
      await u.body.dump();
      const path = model.webhookPath('user');
      const until = Date.now() + 5000;
      while (receiver.received.filter((r) => r.path === path).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      const got = receiver.received.filter((r) => r.path === path).map((r) => r.body as Record<string, unknown>);
      expect(got).toHaveLength(2);
      expect(got[0]).toEqual(got[1]);
      expect(got[0].x_unknown).toBeDefined();
      for (const a of model.aliases.filter((x) => x.direction === 'webhook' && x.webhook === path)) {
        expect(got[0][a.old], a.id).toBeDefined();
        expect(got[0][a.old], a.id).toEqual(got[0][a.new]);
      }
      const v = await audit.verdict();
      const firsts = v.deliveries.filter((d) => d.path === path);
      expect(firsts.map((d) => d.attempt)).toEqual(['first', 'repeat']);
      expect(firsts[1].startMs - firsts[0].startMs).toBeGreaterThanOrEqual(190);
      expect(v.rules.find((r) => r.id === 'CLIENT-WEBHOOK-ACCEPT')?.outcome).toBe('pass');
    } finally {
      await audit.close();
      await receiver.close();
    }
  });
});

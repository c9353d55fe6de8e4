// The audit's front door on real loopback servers: what is recorded, what is not, what the audit
// answers itself, and bad input that must neither crash nor hang it.

import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import { startAudit, type Audit } from './index.ts';

const QUIET = { token_bursts: [], retry_after: [], other_burst: null, stall: null, scale: { token_lifetime_seconds: 2, refresh_buffer_seconds: 1 } };

let audit: Audit | undefined;
afterEach(async () => {
  await audit?.close();
  audit = undefined;
});

async function token(a: Audit): Promise<{ access_token: string; expires_at: number }> {
  const model = await loadModel();
  const r = await request(`${a.profile.base_url}${model.operation('createToken').path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: a.profile.credentials.client_id, client_secret: a.profile.credentials.client_secret, grant_type: 'client_credentials' }),
  });
  expect(r.statusCode).toBe(200);
  return (await r.body.json()) as { access_token: string; expires_at: number };
}

describe('audit front door', () => {
  it('records client calls, never control calls, and judges a request no route matches', async () => {
    audit = await startAudit({ plan: QUIET });
    const control = await request(`${audit.profile.control_url}/no-such-thing`);
    await control.body.dump();
    const unrouted = await request(`${audit.profile.base_url}/cards/charge`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pan: '4111 1111 1111 1111' }) });
    expect(unrouted.statusCode).toBe(404);
    await unrouted.body.dump();
    const v = await audit.verdict();
    expect(v.exchanges.map((e) => [e.method, e.path, e.operationId ?? null])).toEqual([['POST', '/cards/charge', null]]);
    expect(v.rules.find((r) => r.id === 'CLIENT-PAN-PCI-ONLY')).toMatchObject({ outcome: 'fail', exchanges: [1] });
    expect(v.exitCode).toBe(1);
  });

  it("hands out S2S tokens with the plan's expires_at and answers an expired one with the section 7 row", async () => {
    audit = await startAudit({ plan: QUIET });
    const model = await loadModel();
    const t = await token(audit);
    expect(t.expires_at - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(2);
    while (Date.now() < t.expires_at * 1000) await new Promise((r) => setTimeout(r, 50));
    const r = await request(`${audit.profile.base_url}${model.operation('getConfig').path}`, { headers: { authorization: `Bearer ${t.access_token}` } });
    const row = model.errorRule('ERR-S2S-TOKEN-EXPIRED');
    expect(r.statusCode).toBe(row.status);
    expect(await r.body.json()).toMatchObject({ error_reason: row.reason, error_description: row.message });
    const v = await audit.verdict();
    expect(v.rules.find((x) => x.id === 'CLIENT-TOKEN-REFRESH-BUFFER')).toMatchObject({ outcome: 'warn', exchanges: [2] });
    // The record names the token, never holds it.
    expect(JSON.stringify(v.exchanges)).not.toContain(t.access_token);
  });

  it('refuses a body over 1 MiB with a 400 naming body, and keeps serving', async () => {
    audit = await startAudit({ plan: QUIET });
    const big = await request(`${audit.profile.base_url}/api/anything`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(3 * 1024 * 1024, 0x61) }).catch((e: Error) => e);
    if (!(big instanceof Error)) {
      expect(big.statusCode).toBe(400);
      await big.body.dump();
    }
    await token(audit);
  });

  it("masks the client's own header credentials of profile.operation_auth (a vendor key to pci_url) in every record", async () => {
    audit = await startAudit({ plan: QUIET, pciAuth: 'headers' });
    const model = await loadModel();
    const auth = audit.profile.operation_auth?.tokenizeCard;
    expect(auth?.mode).toBe('headers');
    const [[name, key]] = Object.entries(auth!.headers!);
    const tokenize = model.operation('tokenizeCard');
    const card = audit.profile.test_card;
    const r = await request(`${audit.profile.pci_url}${tokenize.path}`, { method: tokenize.method as 'POST', headers: { 'content-type': 'application/json', [name]: key, 'x-echo': `copy ${key}` }, body: JSON.stringify(card) });
    // The reference accepted the key: the record is of a call that went through.
    expect(r.statusCode).toBeLessThan(300);
    await r.body.dump();
    const v = await audit.verdict();
    const ex = v.exchanges.find((e) => e.operationId === 'tokenizeCard');
    expect(ex?.headers[name.toLowerCase()]).toBe('<redacted>');
    expect(ex?.headers['x-echo']).toBe('<redacted>');
    expect(JSON.stringify(v.exchanges)).not.toContain(key);
  });
});

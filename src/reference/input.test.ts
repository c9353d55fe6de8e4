import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startKit, type Kit } from './testkit.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(() => kit.close());

describe('bad input never yields a 500 or a dropped connection', () => {
  it('malformed JSON', async () => {
    for (const raw of ['{', '{"a":', 'null', '[]', '"x"', '{"client_id": }']) {
      const r = await kit.call('POST', '/api/v1/token', { raw, headers: { 'content-type': 'application/json' } });
      expect(r.status, raw).toBe(400);
      expect(errorBody(r).category).toBe('CategoryValidationFailure');
    }
    const u = await kit.newUser();
    const r = await kit.call('POST', '/api/v1/cards/virtual', { raw: '{nope', headers: { ...u.headers, 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(errorBody(r).details).toEqual(['body']);
  });

  it('a 1 MB body answers 400 and the connection stays usable', async () => {
    const big = JSON.stringify({ client_id: 'x'.repeat(1024 * 1024) });
    const r = await kit.call('POST', '/api/v1/token', { raw: big, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(errorBody(r).details).toEqual(['body']);
    const u = await kit.newUser();
    const r2 = await kit.call('POST', '/api/v1/cards/virtual', { raw: big, headers: { ...u.headers, 'content-type': 'application/json' } });
    expect(r2.status).toBe(400);
    expect((await kit.call('GET', '/api/v1/user', { headers: u.headers })).status).toBe(200);
  });

  it('a chunked oversized body is drained, not buffered', async () => {
    async function* gen() {
      for (let i = 0; i < 64; i++) yield Buffer.alloc(16 * 1024, 0x20);
    }
    const res = await request(`${kit.p.base_url}/api/v1/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Readable.from(gen()) });
    expect(res.statusCode).toBe(400);
    await res.body.text();
  });

  it('wrong content type', async () => {
    const c = kit.p.clients[0];
    const raw = JSON.stringify({ client_id: c.client_id, client_secret: c.client_secret, grant_type: 'client_credentials' });
    for (const ct of ['text/plain', 'application/xml']) {
      const r = await kit.call('POST', '/api/v1/token', { raw, headers: { 'content-type': ct } });
      expect(r.status).toBe(400);
      expect(errorBody(r).details).toEqual(['content-type']);
    }
    const u = await kit.newUser();
    const r = await kit.call('POST', '/api/v1/cards/virtual', { raw: 'card_name=x', headers: { ...u.headers, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.status).toBe(400);
  });

  it('wrong types and unknown fields', async () => {
    const c = kit.p.clients[0];
    const r = await kit.call('POST', '/api/v1/token', { body: { client_id: 42, client_secret: ['x'], grant_type: 'client_credentials' } });
    expect(r.status).toBe(400);
    const ok = await kit.call('POST', '/api/v1/token', { body: { client_id: c.client_id, client_secret: c.client_secret, grant_type: 'client_credentials', extra: { nested: true } } });
    expect(ok.status).toBe(200);
    const u = await kit.newUser();
    for (const body of [{ card_name: 5 }, { card_name: null }, { card_name: 'x'.repeat(65) }, { card_name: {} }]) {
      const x = await kit.call('POST', '/api/v1/cards/virtual', { headers: u.headers, body });
      expect(x.status, JSON.stringify(body)).toBe(400);
      errorBody(x);
    }
    for (const body of [{ account_type: 1 }, { start: 'a', end: 1 }, { chain: 84532 }]) {
      for (const path of ['/api/v1/bank/accounts', '/api/v1/activity/statement/full', '/api/v1/bank/accounts/init', '/api/v1/cards/transfer/estimate', '/api/v2/recipients']) {
        const x = await kit.call('POST', path, { headers: u.headers, body });
        expect(x.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        if (x.status >= 400) errorBody(x);
      }
    }
  });

  it('unknown routes answer 404 and wrong methods 405, with the section 7 shape', async () => {
    const r = await kit.call('GET', '/api/v9/nothing');
    expect(r.status).toBe(404);
    expect(errorBody(r)).toMatchObject({ reason: 'ErrorNotFound', code: 404 });
    const m = await kit.call('DELETE', '/api/v1/token');
    expect(m.status).toBe(405);
    expect(m.headers.allow).toBe('POST');
    expect((await kit.call('GET', '/nothing', { server: 'pci' })).status).toBe(404);
  });

  it('control API validates its input and is absent when disabled', async () => {
    expect((await kit.call('POST', '/clock/advance', { server: 'control', body: { seconds: 'x' } })).status).toBe(400);
    expect((await kit.call('POST', '/users/nope/3ds', { server: 'control', body: {} })).status).toBe(404);
    const k = await startKit({ control: false });
    try {
      expect(k.p.control_url).toBeUndefined();
      expect(k.p.idp?.enabled).toBe(false);
      expect((await k.call('POST', '/__control/clock/advance', { body: { seconds: 1 } })).status).toBe(404);
    } finally {
      await k.close();
    }
  });

  it('transform and latency hooks rewrite responses', async () => {
    const k = await startKit({
      latencyMs: 20,
      transform: (req, res) => {
        if (req.operationId === 'getConfig') return { ...res, status: 418 };
      },
    });
    try {
      const t0 = Date.now();
      const r = await k.call('GET', '/api/v1/config', { headers: { authorization: `Bearer ${await k.token()}` } });
      expect(r.status).toBe(418);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(20);
    } finally {
      await k.close();
    }
  });

  it('rejects unknown fault names', async () => {
    await expect(startKit({ faults: new Set(['no.such.fault']) })).rejects.toThrow(/unknown fault/);
  });
});

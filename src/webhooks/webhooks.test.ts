import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseListen, startWebhookReceiver, type TestWebhookReceiver } from './index.ts';
import { field } from '../checks/body.ts';

let rx: TestWebhookReceiver;
beforeAll(async () => {
  rx = await startWebhookReceiver({ keep: 5, maxBodyBytes: 1024 });
});
afterAll(() => rx.close());

const post = (path: string, body: string) => fetch(`${rx.baseUrl}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('webhook receiver', () => {
  it('records deliveries and resolves waiters, past and future', async () => {
    expect((await post('/v2/webhooks/user', '{"user_id":"u1"}')).status).toBe(204);
    expect(await rx.waitFor('/v2/webhooks/user', (b) => field(b, 'user_id') === 'u1', 10)).toMatchObject({ body: { user_id: 'u1' } });
    const pending = rx.waitFor('/v2/webhooks/3ds', (b) => field(b, 'transaction_id') === 't2', 2000);
    await post('/v2/webhooks/3ds', '{"transaction_id":"t1"}');
    await post('/v2/webhooks/3ds', '{"transaction_id":"t2"}');
    expect((await pending)?.body).toEqual({ transaction_id: 't2' });
    expect(await rx.waitFor('/v2/webhooks/3ds', (b) => (b as { nope: { deep: boolean } }).nope.deep, 50)).toBeUndefined();
  });

  it('bounds body size and history', async () => {
    // The receiver answers 413 and closes the socket while the sender may still be writing, so the
    // client sees either the 413 or a reset. Only the receiver's own count proves the refusal.
    const before = rx.stats();
    const big = await post('/big', 'x'.repeat(5000)).then((r) => r.status, (e: unknown) => (e instanceof TypeError ? 'reset' : Promise.reject(e)));
    expect([413, 'reset']).toContain(big);
    expect(rx.stats().tooLarge).toBe(before.tooLarge + 1);
    expect(rx.stats().received).toBe(before.received);
    expect(rx.all().some((w) => w.path === '/big')).toBe(false);
    for (let i = 0; i < 10; i++) await post('/n', JSON.stringify({ i }));
    expect(rx.all().map((w) => field(w.body, 'i'))).toEqual([5, 6, 7, 8, 9]);
    expect((await fetch(`${rx.baseUrl}/x`)).status).toBe(405);
    // Another method is refused but kept apart, body text included, so the method can be judged (EVENT-WEBHOOK-POST).
    expect((await fetch(`${rx.baseUrl}/v2/webhooks/user?a=1`, { method: 'PUT', body: '{"user_id":"u-1"}' })).status).toBe(405);
    expect(rx.refused!().map((r) => [r.method, r.path, r.text])).toEqual([['GET', '/x', ''], ['PUT', '/v2/webhooks/user', '{"user_id":"u-1"}']]);
    expect(rx.all().some((w) => w.path === '/v2/webhooks/user')).toBe(false);
  });
});

describe('webhook receiver and deliveries by another method', () => {
  // Settled or not once the macrotask queue has run: the receiver resolves a waiter before it answers.
  const state = (p: Promise<unknown>) => Promise.race([p.then(() => 'ended'), new Promise((r) => setImmediate(() => r('open')))]);

  it('ends a wait at once when the awaited webhook came by another method, and only then', async () => {
    const r = await startWebhookReceiver();
    try {
      const put = (path: string, body: string) => fetch(`${r.baseUrl}${path}`, { method: 'PUT', body });
      const pending = r.waitFor('/v2/webhooks/user', (b) => field(b, 'user_id') === 'u-9', 600_000);
      // Another path, another user, a body that is not JSON: the wait goes on.
      for (const [path, body] of [['/v2/webhooks/3ds', '{"user_id":"u-9"}'], ['/v2/webhooks/user', '{"user_id":"u-8"}'], ['/v2/webhooks/user', 'u-9']]) {
        expect((await put(path, body)).status).toBe(405);
        expect(await state(pending)).toBe('open');
      }
      expect((await put('/v2/webhooks/user', '{"user_id":"u-9"}')).status).toBe(405);
      expect(await state(pending)).toBe('ended');
      expect(await pending).toBeUndefined();
      // A wait that starts after the refused delivery ends at once too.
      expect(await state(r.waitFor('/v2/webhooks/user', (b) => field(b, 'user_id') === 'u-9', 600_000))).toBe('ended');
    } finally {
      await r.close();
    }
  });
});

describe('webhook receiver bounds and external mode', () => {
  it('drops the oldest deliveries past the byte bound and counts the drop', async () => {
    const r = await startWebhookReceiver({ maxTotalBytes: 100, keep: 1000 });
    try {
      const send = (i: number) => fetch(`${r.baseUrl}/p`, { method: 'POST', body: JSON.stringify({ i, pad: 'x'.repeat(30) }) });
      for (let i = 0; i < 6; i++) await send(i);
      const s = r.stats();
      expect(s.received).toBe(6);
      expect(s.keptBytes).toBeLessThanOrEqual(100);
      expect(s.dropped).toBe(6 - r.all().length);
      expect(s.dropped).toBeGreaterThan(0);
      expect(field(r.all().at(-1)?.body, 'i')).toBe(5);
      expect(field(r.all()[0].body, 'i')).toBe(s.dropped);
    } finally {
      await r.close();
    }
  });

  it('listens on the given address and names its public URL', async () => {
    const probe = await startWebhookReceiver();
    const port = Number(new URL(probe.listenUrl).port);
    await probe.close();
    const r = await startWebhookReceiver({ ...parseListen(`127.0.0.1:${port}`), publicUrl: 'https://hooks.example.test/tunnel/' });
    try {
      expect(r.baseUrl).toBe('https://hooks.example.test/tunnel');
      expect(r.listenUrl).toBe(`http://127.0.0.1:${port}`);
      await fetch(`${r.listenUrl}/v2/webhooks/user`, { method: 'POST', body: '{"user_id":"ext-1"}' });
      expect(await r.waitFor('/v2/webhooks/user', (b) => field(b, 'user_id') === 'ext-1', 500)).toBeDefined();
    } finally {
      await r.close();
    }
    expect(parseListen(':8080')).toEqual({ host: '0.0.0.0', port: 8080 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type TestWebhookReceiver } from './index.ts';

let rx: TestWebhookReceiver;
beforeAll(async () => {
  rx = await startWebhookReceiver({ keep: 5, maxBodyBytes: 1024 });
});
afterAll(() => rx.close());

const post = (path: string, body: string) => fetch(`${rx.baseUrl}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('webhook receiver', () => {
  it('records deliveries and resolves waiters, past and future', async () => {
    expect((await post('/v2/webhooks/user', '{"user_id":"u1"}')).status).toBe(204);
    expect(await rx.waitFor('/v2/webhooks/user', (b) => b.user_id === 'u1', 10)).toMatchObject({ body: { user_id: 'u1' } });
    const pending = rx.waitFor('/v2/webhooks/3ds', (b) => b.transaction_id === 't2', 2000);
    await post('/v2/webhooks/3ds', '{"transaction_id":"t1"}');
    await post('/v2/webhooks/3ds', '{"transaction_id":"t2"}');
    expect((await pending)?.body).toEqual({ transaction_id: 't2' });
    expect(await rx.waitFor('/v2/webhooks/3ds', (b) => b.nope.deep, 50)).toBeUndefined();
  });

  it('bounds body size and history', async () => {
    expect((await post('/big', 'x'.repeat(5000)).catch(() => ({ status: 413 }))).status).toBe(413);
    for (let i = 0; i < 10; i++) await post('/n', JSON.stringify({ i }));
    expect(rx.all().map((w) => w.body.i)).toEqual([5, 6, 7, 8, 9]);
    expect((await fetch(`${rx.baseUrl}/x`)).status).toBe(405);
  });
});

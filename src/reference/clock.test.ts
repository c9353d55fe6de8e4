// The reference's clock and limiter fault points (variants/clock.ts): each changes only
// what it names, and the fault-free reference keeps the section 8 values.

import { describe, expect, it } from 'vitest';
import { startKit, type Kit } from './testkit.ts';

async function withKit(opts: Parameters<typeof startKit>[0], fn: (k: Kit) => Promise<void>): Promise<void> {
  const k = await startKit(opts);
  try {
    await fn(k);
  } finally {
    await k.close();
  }
}

const now = async (k: Kit): Promise<number> => (await k.call('POST', '/clock/advance', { server: 'control', body: { seconds: 0 } })).obj.now as number;

// The challenge is created somewhere between two clock reads, and a loaded machine can let seconds
// pass between them, so the window is pinned to the range those reads allow (one second of rounding
// either side), not to one reading.
async function expectChallengeWindow(k: Kit, seconds: number): Promise<void> {
  const u = await k.newUser();
  const before = await now(k);
  const res = await k.call('POST', `/users/${u.id}/3ds`, { server: 'control', body: {} });
  const after = await now(k);
  expect(res.status).toBe(201);
  const expiresAt = Number(res.obj.expires_at);
  expect(seconds).toBeGreaterThanOrEqual(expiresAt - after - 1);
  expect(seconds).toBeLessThanOrEqual(expiresAt - before + 1);
}

describe('3DS window fault points', () => {
  it('the window is 5 minutes, 60 s with 3ds.window-short and 10 minutes with 3ds.window-long', async () => {
    await withKit({}, (k) => expectChallengeWindow(k, 300));
    await withKit({ faults: new Set(['3ds.window-short']) }, (k) => expectChallengeWindow(k, 60));
    await withKit({ faults: new Set(['3ds.window-long']) }, (k) => expectChallengeWindow(k, 600));
  });
});

describe('s2s.short-validity', () => {
  const aged = async (k: Kit, seconds: number) => {
    const h = await k.s2s();
    await k.call('POST', '/clock/advance', { server: 'control', body: { seconds } });
    return k.call('GET', '/api/v1/config', { headers: h });
  };
  it('without the fault a 25 h old token is accepted; with it the same token is the ErrorExpired row', async () => {
    await withKit({}, async (k) => expect((await aged(k, 25 * 3600)).status).toBe(200));
    await withKit({ faults: new Set(['s2s.short-validity']) }, async (k) => {
      const res = await aged(k, 25 * 3600);
      expect(res.status).toBe(401);
      expect(res.obj.error_reason).toBe('ErrorExpired');
    });
  });
});

describe('withdrawal.valid-after-now', () => {
  const delay = async (k: Kit) => {
    const u = await k.newUser();
    const t = await now(k);
    const res = await k.call('POST', `/users/${u.id}/withdrawal-requests`, { server: 'control', body: {} });
    expect(res.status).toBe(201);
    return Number(res.obj.valid_after) - t;
  };
  it('valid_after is about 3 s after the request, and the request time with the fault', async () => {
    await withKit({}, async (k) => expect([2, 3]).toContain(await delay(k)));
    await withKit({ faults: new Set(['withdrawal.valid-after-now']) }, async (k) => expect([-1, 0]).toContain(await delay(k)));
  });
});

describe('rate-limit fault points', () => {
  const tokenBody = (k: Kit) => ({ client_id: k.p.clients[0].client_id, client_secret: k.p.clients[0].client_secret, grant_type: 'client_credentials' });
  it('ratelimit.per-ip-only drops the client limit, ratelimit.per-client-only the IP limit', async () => {
    const limits = { perIp: 2, perClient: 2, windowMs: 60_000 };
    await withKit({ rateLimit: { ...limits, perIp: 100 }, faults: new Set(['ratelimit.per-ip-only']) }, async (k) => {
      for (let i = 0; i < 4; i++) expect((await k.call('POST', '/api/v1/token', { body: tokenBody(k) })).status).toBe(200);
    });
    await withKit({ rateLimit: { ...limits, perClient: 100 }, faults: new Set(['ratelimit.per-client-only']) }, async (k) => {
      for (let i = 0; i < 4; i++) expect((await k.call('POST', '/api/v1/token', { body: {} })).status).toBe(400);
    });
    // Fault-free, the same traffic is refused by each limit.
    await withKit({ rateLimit: { ...limits, perIp: 100 } }, async (k) => {
      const s = [];
      for (let i = 0; i < 3; i++) s.push((await k.call('POST', '/api/v1/token', { body: tokenBody(k) })).status);
      expect(s).toEqual([200, 200, 429]);
    });
  });

  it('resetClock puts the clock back at real time, and a window begun while it was ahead starts afresh', async () => {
    await withKit({ rateLimit: { perIp: 100, perClient: 2, windowMs: 60_000 } }, async (k) => {
      const ahead = (await k.call('POST', '/clock/advance', { server: 'control', body: { seconds: 172_800 } })).obj.now as number;
      expect(ahead - Date.now() / 1000).toBeGreaterThan(172_790);
      const s = [];
      for (let i = 0; i < 3; i++) s.push((await k.call('POST', '/api/v1/token', { body: tokenBody(k) })).status);
      expect(s).toEqual([200, 200, 429]);
      const reset = await k.call('POST', '/clock/reset', { server: 'control', body: {} });
      expect(reset.status).toBe(200);
      expect(Math.abs((reset.obj.now as number) - Date.now() / 1000)).toBeLessThan(3);
      // The window began two days "from now": without the reset it would refuse for two days.
      expect((await k.call('POST', '/api/v1/token', { body: tokenBody(k) })).status).toBe(200);
    });
  });

  it('the profile documents the limits in force, and none when the limiter is off', async () => {
    await withKit({ rateLimit: { perIp: 7, perClient: 9, windowMs: 3000 } }, async (k) => {
      expect(k.p.rate_limit).toMatchObject({ per_ip: 7, per_client: 9, window_seconds: 3 });
    });
    await withKit({ faults: new Set(['ratelimit.disabled']) }, async (k) => expect(k.p.rate_limit?.per_ip).toBeUndefined());
  });
});

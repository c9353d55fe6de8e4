import { afterEach, describe, expect, it } from 'vitest';
import { SkipSignal } from '../checks/signals.ts';
import type { Exchange } from '../events/index.ts';
import type { Model } from '../model/types.ts';
import { TransportError, backoffDelay, parseRetryAfter, RETRY_DEFAULTS } from './index.ts';
import { loopback, transportError, type Loopback } from './testing.ts';

const net = loopback({ s2s_signing_secret: 'signing-key-xyz' });
const { serve, session } = net;
afterEach(net.close);

/**
 * The tests that wait out Retry-After (whole seconds) run side by side, each on servers of its own,
 * closed when it ends (afterEach would close the others' too).
 */
async function alone<T>(test: (n: Loopback) => Promise<T>): Promise<T> {
  const own = loopback({ s2s_signing_secret: 'signing-key-xyz' });
  try {
    return await test(own);
  } finally {
    await own.close();
  }
}

async function transportCode(p: Promise<unknown>): Promise<string> {
  return (await transportError(p)).code;
}

describe('HttpSession client', () => {
  it('times out against a server that never answers', async () => {
    const url = await serve(() => {
      /* never answers */
    });
    const s = session(url, { timeoutBudgetMs: 300 });
    // The client's own decision: a TIMEOUT naming the budget it armed (a hang is the test timeout's).
    const err = await transportError(s.client('t').send({ path: '/x' }));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toContain('within 300 ms');
  });

  it('times out when the body stalls after headers', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
    });
    const s = session(url, { timeoutBudgetMs: 300 });
    expect(await transportCode(s.client('t').send({ path: '/x' }))).toBe('TIMEOUT');
  });

  it('does not retry with noRetry; a 429 that never ends is RATE_LIMITED after maxRetries, never the answer', async () => {
    let hits = 0;
    const url = await serve((_req, res) => {
      hits++;
      res.writeHead(429);
      res.end();
    });
    const s = session(url, { retry: { baseMs: 1, capMs: 2 } });
    expect((await s.client('a').send({ path: '/', noRetry: true })).status).toBe(429);
    expect(hits).toBe(1);
    const c = s.client('b');
    const p = c.send({ path: '/' });
    expect(await transportCode(p)).toBe('RATE_LIMITED');
    expect(hits).toBe(1 + 1 + RETRY_DEFAULTS.maxRetries);
  });

  it('many attempts in flight under one check signal: one abort listener on it, and its abort ends them all with its reason', async () => {
    const url = await serve(() => {
      /* never answers */
    });
    const check = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const c = session(url, { timeoutBudgetMs: 20_000 }).client('many', { signal: check.signal });
      const sends = Array.from({ length: 16 }, (_, i) => transportError(c.send({ path: `/x${i}` })));
      // Every attempt is on the wire (undici dispatches on a later tick) before the check is cancelled.
      await new Promise((r) => setTimeout(r, 200));
      check.abort(new Error('check out of time'));
      const errors = await Promise.all(sends);
      expect(errors.map((e) => e.code)).toEqual(Array(16).fill('ABORTED'));
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it.concurrent('retries 429 honouring Retry-After, and records each attempt', () => alone(async ({ serve, session }) => {
    let hits = 0;
    const url = await serve((_req, res) => {
      hits++;
      if (hits === 1) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        res.end('{"error_reason":"ErrorRateLimited"}');
      } else res.end('{"ok":true}');
    });
    const exchanges: Exchange[] = [];
    const c = session(url).client('rl', { onExchange: (e) => exchanges.push(e) });
    const started = Date.now();
    const res = await c.send({ path: '/token', method: 'POST', body: {} });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(exchanges.map((e) => [e.attempt, e.response?.status])).toEqual([
      [1, 429],
      [2, 200],
    ]);
    expect(c.count).toBe(2);
  }));

  it.concurrent('ends a 429 storm at the wait bound (counted in Retry-After sleeps, not attempts), naming the rate limit', () => alone(async ({ serve, session }) => {
    let hits = 0;
    const url = await serve((_req, res) => {
      hits++;
      res.writeHead(429, { 'retry-after': '1' });
      res.end();
    });
    // 2.5 s of waiting: two 1 s sleeps fit, the third would pass the bound.
    const c = session(url, { retry: { maxWaitMs: 2500 } }).client('storm');
    let err: unknown;
    try {
      await c.send({ path: '/x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).code).toBe('RATE_LIMITED');
    expect((err as TransportError).message).toMatch(/answered 429 \(rate limiting\) to all 3 attempts/);
    expect(hits).toBe(3);
    // The sleeps were slow waiting: the check's time limit follows them.
    expect(c.slowMs).toBeGreaterThanOrEqual(1900);
  }));

  it.concurrent('waits a 429 out past one request budget: each attempt gets the whole budget, the sleep is not charged to it', () => alone(async ({ serve, session }) => {
    let hits = 0;
    const url = await serve((_req, res) => {
      hits++;
      // Three 429s with Retry-After 1 (3 s of waiting, six budgets of 500 ms), then a real answer.
      if (hits <= 3) {
        res.writeHead(429, { 'retry-after': '1' });
        res.end();
      } else res.end('{"ok":true}');
    });
    const res = await session(url, { timeoutBudgetMs: 500 }).client('patient').send({ path: '/x' });
    expect(res.status).toBe(200);
    expect(hits).toBe(4);
  }));

  it('aborts a 20 MB streaming body with BODY_TOO_LARGE, holding at most the limit plus one chunk', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    let closed!: () => void;
    const serverSawClose = new Promise<void>((r) => (closed = r));
    const url = await serve(async (_req, res) => {
      res.on('close', () => closed());
      res.writeHead(200, { 'content-type': 'application/json' });
      while (written < 20 * 1024 * 1024 && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) {
          await new Promise<void>((r) => {
            const done = () => {
              res.off('drain', done);
              res.off('close', done);
              r();
            };
            res.on('drain', done);
            res.on('close', done);
          });
        }
      }
      res.end();
    });
    const s = session(url);
    const err = await transportError(s.client('big').send({ path: '/' }));
    expect(err.code).toBe('BODY_TOO_LARGE');
    // What the client held when it refused (not the process heap, which counts everything else the
    // process does): past the limit by at most one socket read (64 KiB).
    expect(err.bytes).toBeGreaterThan(s.maxBodyBytes);
    expect(err.bytes).toBeLessThanOrEqual(s.maxBodyBytes + 64 * 1024);
    // And it hung up: the server sees the connection close (a client that drained or kept the socket
    // would leave it writing until the test timeout) having sent far less than the 20 MB (the limit
    // plus what loopback socket buffers hold).
    await serverSawClose;
    expect(written).toBeLessThan(20 * 1024 * 1024);
  });

  it('rejects an oversized Content-Length before reading', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
      res.write('x');
    });
    const err = await transportError(session(url).client('cl').send({ path: '/' }));
    expect(err.code).toBe('BODY_TOO_LARGE');
    expect(err.bytes, 'refused on the header, no body byte read').toBe(0);
  });

  it('returns invalid JSON as text with jsonError, not an exception', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"broken": ');
    });
    const res = await session(url).client('j').send({ path: '/' });
    expect(res.status).toBe(200);
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toBeTruthy();
    expect(res.text).toBe('{"broken": ');
  });

  it('maps a reset connection to CONNECTION_RESET', async () => {
    const url = await serve((req) => req.socket.destroy());
    expect(await transportCode(session(url).client('r').send({ path: '/' }))).toBe('CONNECTION_RESET');
  });

  it('maps a closed port to CONNECTION_REFUSED', async () => {
    const url = await net.closedPort();
    expect(await transportCode(session(url).client('r').send({ path: '/' }))).toBe('CONNECTION_REFUSED');
  });

  it('masks secrets in recorded exchanges and curl', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"access_token":"tok-abcdefghijkl","token_type":"Bearer","echo":"tok-abcdefghijkl"}');
    });
    const exchanges: Exchange[] = [];
    const c = session(url).client('m', { onExchange: (e) => exchanges.push(e) });
    await c.send({ path: '/api/v1/token', method: 'POST', body: { client_id: 'cid', client_secret: 'super-secret-1' } });
    await c.send({ path: '/api/v1/config', headers: { Authorization: 'Bearer tok-abcdefghijkl', 'x-sig': 'signing-key-xyz' } });
    const text = JSON.stringify(exchanges);
    expect(text).not.toContain('super-secret-1');
    expect(text).not.toContain('tok-abcdefghijkl');
    expect(text).not.toContain('signing-key-xyz');
    expect(exchanges[1].curl).toContain(`-H 'authorization: Bearer ***'`);
    expect(exchanges[0].curl).toMatch(/^curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/token'/);
    expect(exchanges[0].request.body).toContain('"client_id":"cid"');
  });

  it('ends a redirect to the same path with its trailing slash toggled as SLASH_REDIRECT naming the profile entry; any other redirect is an answer', async () => {
    const url = await serve((req, res) => {
      // FastAPI's redirect_slashes: /path/ -> 307 /path; elsewhere a redirect to another path.
      const to = req.url === '/cards/c1/block/' ? '/cards/c1/block' : req.url === '/moved' ? '/elsewhere' : undefined;
      res.writeHead(to ? 307 : 200, to ? { location: to } : { 'content-type': 'application/json' });
      res.end(to ? '' : '{}');
    });
    const model = { operations: new Map([['blockCard', { operationId: 'blockCard', method: 'post', path: '/x', server: 'api', pathUnspecified: true }]]) } as unknown as Model;
    const s = session(url, { model });
    (s.profile.operations as any).blockCard = { method: 'POST', path: '/cards/{card_id}/block/' };
    const err = await transportError(s.client('slash').send({ op: 'blockCard', params: { card_id: 'c1' } }));
    expect(err.code).toBe('SLASH_REDIRECT');
    expect(err.operation).toBe('blockCard');
    expect(err.message).toMatch(/HTTP 307 to .*\/cards\/c1\/block, the same path without a trailing slash.*profile\.operations\.blockCard\.path/);
    expect((await s.client('other').send({ path: '/moved' })).status).toBe(307);
  });

  it('resolves operations from the model and the profile', async () => {
    const seen: string[] = [];
    const url = await serve((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    const model = {
      operations: new Map([
        ['getWallet', { operationId: 'getWallet', method: 'get', path: '/api/v1/wallet', server: 'api', pathUnspecified: false }],
        ['blockCard', { operationId: 'blockCard', method: 'post', path: '/x', server: 'api', pathUnspecified: true }],
        ['activateCard', { operationId: 'activateCard', method: 'post', path: '/x', server: 'api', pathUnspecified: true }],
      ]),
    } as unknown as Model;
    const s = session(url, { model });
    (s.profile.operations as any).blockCard = { method: 'POST', path: '/cards/{card_id}/block' };
    const c = s.client('ops');
    await c.send({ op: 'getWallet', query: { wallet_id: 'w 1' } });
    await c.send({ op: 'blockCard', params: { card_id: 'a/b' } });
    expect(seen).toEqual(['GET /api/v1/wallet?wallet_id=w+1', 'POST /cards/a%2Fb/block']);
    await expect(c.send({ op: 'activateCard', params: { card_id: 'x' } })).rejects.toThrow(SkipSignal);
    await expect(c.send({ op: 'activateCard', params: { card_id: 'x' } })).rejects.toThrow(
      'profile.operations.activateCard not given: the spec does not show its path',
    );
    await expect(c.send({ path: '/x', server: 'control' })).rejects.toThrow(/profile.control_url is not set/);
  });
});

describe('retry arithmetic', () => {
  it('parses Retry-After seconds and dates, caps it, and jitters fully otherwise', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(backoffDelay(1, '3600', RETRY_DEFAULTS)).toBe(10_000);
    expect(backoffDelay(3, undefined, RETRY_DEFAULTS, () => 0.999)).toBe(799);
    expect(backoffDelay(10, undefined, RETRY_DEFAULTS, () => 0.999)).toBe(4995);
    expect(backoffDelay(2, undefined, RETRY_DEFAULTS, () => 0)).toBe(0);
  });
});

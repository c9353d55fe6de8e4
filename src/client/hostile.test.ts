// The client against misbehaving loopback servers: each test can fail (a regression would hang,
// crash with RangeError or ENOMEM, follow a redirect, or retry without end), and asserts on what the
// client decided (codes, counts, the budget it armed, the bytes it held), never on wall time or the
// process's memory, which a busy machine or the rest of the suite moves. A hang is the test timeout's.
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonDepth } from './decode.ts';
import { TransportError } from './index.ts';
import { loopback, transportError, type Loopback } from './testing.ts';

const net = loopback();
const { serve, session } = net;
afterEach(net.close);

/**
 * The two tests that wait out Retry-After (whole seconds) run side by side, each on servers of its
 * own, closed when it ends (afterEach would close the other's too).
 */
async function alone<T>(test: (n: Loopback) => Promise<T>): Promise<T> {
  const own = loopback();
  try {
    return await test(own);
  } finally {
    await own.close();
  }
}

describe('content codings', () => {
  it('asks for gzip, deflate and br, and decodes each (and a chain of two)', async () => {
    const body = JSON.stringify({ ok: true, pad: 'x'.repeat(1000) });
    const seen: (string | undefined)[] = [];
    const url = await serve((req, res) => {
      seen.push(req.headers['accept-encoding']);
      const coding = req.url!.slice(1);
      const encoded =
        coding === 'gzip' ? zlib.gzipSync(body)
        : coding === 'deflate' ? zlib.deflateSync(body)
        : coding === 'raw-deflate' ? zlib.deflateRawSync(body)
        : coding === 'br' ? zlib.brotliCompressSync(body)
        : zlib.brotliCompressSync(zlib.gzipSync(body));
      const header = coding === 'raw-deflate' ? 'deflate' : coding === 'chain' ? 'gzip, br' : coding;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': header });
      res.end(encoded);
    });
    const c = session(url).client('enc');
    for (const coding of ['gzip', 'deflate', 'raw-deflate', 'br', 'chain']) {
      const res = await c.send({ path: `/${coding}` });
      expect(res.json, coding).toEqual({ ok: true, pad: 'x'.repeat(1000) });
    }
    expect(seen.every((h) => h === 'gzip, deflate, br')).toBe(true);
  });

  it('refuses a gzip bomb at the body limit with BODY_TOO_LARGE (decoding stops there)', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(24 * 1024 * 1024, ' ')); // 24 MiB of spaces, ~24 KiB compressed
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const s = session(url);
    const err = await transportError(s.client('bomb').send({ path: '/' }));
    expect(err.code).toBe('BODY_TOO_LARGE');
    expect(err.message).toContain('decodes to more than');
    // The decoder stopped at the limit (plus the chunk it was filling), not after the 24 MiB: an
    // unbounded decode refused afterwards would report all it decoded. The peak memory of a bomb is a
    // benchmark figure (bench/hostile-body.bench.ts), not a test bound: rss counts the whole process.
    expect(err.message).toContain('decoding stopped at the limit');
    expect(err.bytes).toBeGreaterThan(s.maxBodyBytes);
    expect(err.bytes).toBeLessThanOrEqual(s.maxBodyBytes + 64 * 1024);
  });

  it('reports a body that does not decode as DECODE, credited to the JSON-body rule', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end('{"not":"gzip"}');
    });
    const err = await transportError(session(url).client('bad').send({ path: '/' }));
    expect(err.code).toBe('DECODE');
    expect(err.ruleId).toBe('GENERAL-TRANSPORT-JSON');
  });
});

describe('hostile bodies and timing', () => {
  it('refuses JSON nested a million deep as BODY_TOO_DEEP without a RangeError', async () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(deep);
    });
    const err = await transportError(session(url).client('deep').send({ path: '/' }));
    expect(err.code).toBe('BODY_TOO_DEEP');
    expect(err.ruleId).toBe('GENERAL-TRANSPORT-JSON');
    // The depth scan skips brackets inside strings, and accepts nesting at the limit.
    expect(jsonDepth('{"a":"[[[[[[","b":[1,[2]]}')).toBe(3);
    const ok = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    const url2 = await serve((_req, res) => res.end(ok));
    expect((await session(url2).client('ok').send({ path: '/' })).json).toBeDefined();
  });

  it('ends a slow-drip body (a byte every 100 ms, never finishing) at the request budget', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 100);
      res.on('close', () => clearInterval(t));
    });
    // Cut by the budget the client armed: an idle timer alone never fires (a byte arrives every 100 ms),
    // so without the overall budget this would run into the test timeout.
    const err = await transportError(session(url, { timeoutBudgetMs: 1000 }).client('drip').send({ path: '/' }));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toContain('within 1000 ms');
  });

  it.concurrent('bounds a storm of 429s by the wait bound, not the request budget, ending RATE_LIMITED (never the 429 as an answer)', () => alone(async ({ serve, session }) => {
    let hits = 0;
    const url = await serve((_req, res) => {
      hits++;
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
      res.end('{}');
    });
    const err = await transportError(session(url, { timeoutBudgetMs: 1500, retry: { maxRetries: 50, maxWaitMs: 3000 } }).client('storm').send({ path: '/' }));
    expect(err.code).toBe('RATE_LIMITED');
    // Retry-After 1 s within a 3 s wait bound: three waits, four attempts, not 50.
    expect(hits).toBe(4);
  }));

  it.concurrent('gives a retry after a 429 a whole budget: an answer within it is not a TIMEOUT (429 within backoff plus latency)', () => alone(async ({ serve, session }) => {
    let hits = 0;
    const url = await serve((_req, res) => {
      hits++;
      if (hits === 1) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        return void res.end('{}');
      }
      // 2.2 s: within the 3 s budget, but past what was left of the first attempt's budget after the 1 s backoff.
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), 2200);
    });
    const res = await session(url, { timeoutBudgetMs: 3000 }).client('retry-latency').send({ path: '/' });
    // What the client decided: one retry, answered within its own budget (no TIMEOUT). No wall-time
    // bound: the 1.3 s of slack it had over backoff plus server delay is what a busy machine eats.
    expect(res.status).toBe(200);
    expect(hits).toBe(2);
  }));

  it('stops a retry sleep and a stalled answer when the check is aborted', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/stall') return; // never answers
      res.writeHead(429, { 'retry-after': '200' });
      res.end();
    });
    // A 300 s budget and a 200 s Retry-After: a client that ignored the abort would wait past the
    // test timeout, so no wall-time bound is needed; the assertions are on why the send ended.
    const s = session(url, { timeoutBudgetMs: 300_000, retry: { capMs: 300_000 } });
    const reason = new Error('check out of time');
    const ended: unknown[] = [];
    for (const path of ['/stall', '/429']) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(reason), 200);
      ended.push(await s.client('abort', { signal: controller.signal }).send({ path }).then(() => 'answered', (e: unknown) => e));
    }
    // The stalled request ends as ABORTED (not a TIMEOUT: the budget is far away); the sleep ends
    // with the check's abort reason.
    expect((ended[0] as TransportError).code).toBe('ABORTED');
    expect((ended[1] as Error).name).toBe('AbortError');
    expect((ended[1] as Error).cause).toBe(reason);
  });

  it('never follows a redirect (to another host, the credentials stay home)', async () => {
    const seenElsewhere: (string | undefined)[] = [];
    const other = await serve((req, res) => {
      seenElsewhere.push(req.headers.authorization);
      res.end('{}');
    });
    const url = await serve((_req, res) => {
      res.writeHead(307, { location: `${other.replace('127.0.0.1', 'localhost')}/steal` });
      res.end();
    });
    const res = await session(url).client('redir').send({ path: '/api/v1/user', headers: { Authorization: 'Bearer secret-token-abc' } });
    expect(res.status).toBe(307);
    expect(seenElsewhere).toEqual([]);
  });
});

import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../events/index.ts';
import { loopback } from './testing.ts';
import { TRACEPARENT, withTrace } from './trace.ts';

const net = loopback();
const { session } = net;
afterEach(net.close);

/** A loopback server that records the headers of every request; `/busy` answers 429 (Retry-After: 0) once. */
async function recorder(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  let busy = 1;
  const url = await net.serve((req, res) => {
    seen.push(req.headers);
    if (req.url === '/busy' && busy-- > 0) {
      res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  return { url, seen };
}

const parts = (h: IncomingHttpHeaders) => {
  const m = TRACEPARENT.exec(String(h.traceparent));
  expect(m, `traceparent ${h.traceparent} is not 00-<32 hex>-<16 hex>-01`).not.toBeNull();
  return { traceId: m![1], spanId: m![2], requestId: String(h['x-request-id']) };
};

describe('trace context on every request a check sends', () => {
  it('one trace per check, one span and one X-Request-Id per request (retries included), recorded on each exchange', async () => {
    const { url, seen } = await recorder();
    const s = session(url);
    const exchanges: Exchange[] = [];
    const a = s.client('check.a', { onExchange: (e) => exchanges.push(e) });
    const b = s.client('check.b', { onExchange: (e) => exchanges.push(e) });
    await a.send({ path: '/one' });
    await a.send({ path: '/busy' }); // 429 then 200: two attempts, two spans
    await b.send({ path: '/two', method: 'POST', body: { x: 1 } });
    expect(seen).toHaveLength(4);
    const ids = seen.map(parts);
    // Within check a (three requests): one trace id. Check b: another.
    expect(new Set(ids.slice(0, 3).map((i) => i.traceId)).size).toBe(1);
    expect(ids[3].traceId).not.toBe(ids[0].traceId);
    // One span and one request id per request sent, the 429's retry included.
    expect(new Set(ids.map((i) => i.spanId)).size).toBe(4);
    expect(new Set(ids.map((i) => i.requestId)).size).toBe(4);
    for (const i of ids) expect(i.requestId).toMatch(/^[0-9a-f-]{36}$/);
    // Each exchange records what its request carried, in order; the retry is attempt 2 with its own span.
    expect(exchanges.map((e) => ({ traceId: e.traceId, spanId: e.spanId, requestId: e.requestId }))).toEqual(ids);
    expect(exchanges.map((e) => e.attempt)).toEqual([1, 1, 2, 1]);
    expect(exchanges[0].request.headers.traceparent).toBe(seen[0].traceparent);
  });

  it('ids are random: all-zero ids never occur and two clients of the same check id get different traces', async () => {
    const { url, seen } = await recorder();
    const s = session(url);
    await s.client('same').send({ path: '/x' });
    await s.client('same').send({ path: '/x' });
    const [first, second] = seen.map(parts);
    expect(first.traceId).not.toBe(second.traceId);
    expect(first.traceId).not.toMatch(/^0+$/);
    expect(first.spanId).not.toMatch(/^0+$/);
  });

  it('a check that sets traceparent or X-Request-Id itself keeps its value (a check may test how a target treats them)', async () => {
    const { url, seen } = await recorder();
    const s = session(url);
    const exchanges: Exchange[] = [];
    await s.client('own', { onExchange: (e) => exchanges.push(e) }).send({ path: '/x', headers: { traceparent: 'not-a-traceparent' } });
    expect(seen[0].traceparent).toBe('not-a-traceparent');
    expect(seen[0]['x-request-id']).toBeUndefined();
    expect(exchanges[0].traceId).toBeUndefined();
    expect(withTrace({ 'x-request-id': 'mine' }, 'a'.repeat(32)).ids).toBeUndefined();
  });
});

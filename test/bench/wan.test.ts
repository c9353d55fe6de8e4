// The WAN bench's parts: the delay proxy on real loopback servers, and the critical-path arithmetic.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startDelayProxy, type DelayProxy } from '../../bench/delay-proxy.ts';
import { chainsOf, costsModule, criticalPath, longestChain } from '../../bench/wan.bench.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

interface Seen {
  from: string | undefined;
  method: string | undefined;
  body: string;
  at: number;
}

async function upstream(): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ from: req.socket.remoteAddress, method: req.method, body, at: performance.now() });
      res.writeHead(201, { 'content-type': 'application/json', 'x-echo': req.url ?? '' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ got: body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function send(url: string, opts: { method?: string; body?: string; localAddress?: string } = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; ms: number }> {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', agent: false, ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: performance.now() - began }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function proxy(up: string, delayMs: number): Promise<DelayProxy> {
  const p = await startDelayProxy(up, delayMs);
  closers.push(() => p.close());
  return p;
}

describe('delay proxy', () => {
  it('adds the delay to every exchange, half before the target sees the request, and forwards status, headers and body', async () => {
    const up = await upstream();
    const p = await proxy(up.url, 120);
    const began = performance.now();
    const res = await send(`${p.url}/a/b?c=1`, { method: 'POST', body: '{"x":1}' });
    expect(res.status).toBe(201);
    expect(res.headers['x-echo']).toBe('/a/b?c=1');
    expect(JSON.parse(res.body)).toEqual({ got: '{"x":1}' });
    expect(res.ms).toBeGreaterThanOrEqual(118);
    expect(up.seen[0].at - began).toBeGreaterThanOrEqual(58);
    expect(p.count).toBe(1);
    const head = await send(`${p.url}/h`, { method: 'HEAD' });
    expect(head.status).toBe(201);
    expect(head.body).toBe('');
  });

  it('connects to the target from the source address the client used (per-IP limits stay per address)', async () => {
    const up = await upstream();
    const p = await proxy(up.url, 10);
    await send(p.url, { localAddress: '127.0.0.2' });
    await send(p.url, { localAddress: '127.0.0.3' });
    await send(p.url);
    expect(up.seen.map((s) => s.from)).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.1']);
  });

  it('refuses an https upstream rather than forwarding it as http', async () => {
    await expect(startDelayProxy('https://127.0.0.1:1', 10)).rejects.toThrow(/http origins only/);
  });
});

describe('critical path from recorded exchanges', () => {
  it('counts the requests of one check sent one after another, not those sent side by side', () => {
    // Three in a row (0-50, 50-100, 100-150) beside two concurrent ones (0-60, 10-70).
    expect(longestChain([{ start: 0, end: 50 }, { start: 0, end: 60 }, { start: 10, end: 70 }, { start: 50, end: 100 }, { start: 100, end: 150 }])).toBe(3);
    // Ten at once is a chain of one; timestamps rounded by a millisecond still chain.
    expect(longestChain(Array.from({ length: 10 }, () => ({ start: 0, end: 50 })))).toBe(1);
    expect(longestChain([{ start: 0, end: 51 }, { start: 50, end: 100 }])).toBe(2);
    expect(longestChain([])).toBe(0);
  });

  it('reads chains per check from a HAR and adds the exclusive checks, which run alone', () => {
    const at = (ms: number) => new Date(1_700_000_000_000 + ms).toISOString();
    const entry = (check: string, start: number, time: number) => ({ startedDateTime: at(start), time, _check: check });
    const har = { log: { entries: [entry('a', 0, 50), entry('a', 50, 50), entry('a', 100, 50), entry('b', 0, 50), entry('b', 0, 50), entry('x', 200, 50), entry('x', 250, 50)] } };
    const chains = chainsOf(har);
    expect(Object.fromEntries(chains)).toEqual({ a: 3, b: 1, x: 2 });
    expect(criticalPath(chains, new Set(['x']))).toEqual({ requests: 5, longest: { checkId: 'a', chain: 3 }, exclusive: 2 });
  });

  it('records the chains as suites/costs.ts, ids sorted, and a second record keeps the header as it was', () => {
    const header = '// Recorded, not derived from the spec.\n\n';
    const once = costsModule(new Map([['b', 2], ['a', 7]]), header);
    expect(once).toBe("// Recorded, not derived from the spec.\n\nexport const RECORDED_COSTS: Readonly<Record<string, number>> = {\n  'a': 7,\n  'b': 2,\n};\n");
    // BENCH_WAN_RECORD passes the file's text before the table as the header of the next one.
    const twice = costsModule(new Map([['a', 7], ['b', 2]]), once.slice(0, once.indexOf('export const RECORDED_COSTS')));
    expect(twice).toBe(once);
  });
});

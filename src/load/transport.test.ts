// The load transport reads every framing RFC 9112 allows, in any split of the bytes, and fails a
// request (never the run) on an answer it cannot read; on a raw loopback server that writes each
// answer byte for byte as the test scripts it.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerIn } from './dispatch.ts';
import { Connections, type Exchange, type WireRequest } from './transport.ts';

interface Got {
  status?: number;
  head?: string;
  body?: string;
  error?: string;
}

/** One request through the transport; resolves with what the exchange saw. */
function send(c: Connections, req: WireRequest, keepBody = true, onAbort?: (abort: (err?: Error) => void) => void): Promise<Got> {
  return new Promise((resolve) => {
    const got: Got = {};
    const chunks: Buffer[] = [];
    const ex: Exchange = {
      onConnect: (link) => onAbort?.((err) => link.abort(ex, err)),
      onHeaders(status, b, from, to) {
        got.status = status;
        got.head = b.toString('latin1', from, to);
        return keepBody;
      },
      onData: (b, from, to) => void chunks.push(Buffer.from(b.subarray(from, to))),
      onComplete: () => resolve({ ...got, body: Buffer.concat(chunks).toString('utf8') }),
      onError: (err) => resolve({ ...got, error: (err as Error & { code?: string }).code ?? err.message }),
    };
    c.dispatch(req, ex);
  });
}

const get = (path: string, headers: Record<string, string> = {}): WireRequest => ({ method: 'GET', path, headers });

/** GETs each path on `c` in turn, each answer matching what is listed for it. */
async function answersMatch(c: Connections, list: readonly (readonly [string, Partial<Got>])[]): Promise<void> {
  for (const [path, want] of list) expect(await send(c, get(path)), path).toMatchObject(want);
}

// Each path scripts its answer as pieces written apart (so the client reads them in separate chunks).
const SCRIPTS: Record<string, string[]> = {
  '/length': ['HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Len', 'gth: 11\r\n\r\n{"a":', '"bcd"}'],
  '/chunked': ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r', '\n5\r\npedia\r\n0\r\nX-Trailer: t\r\n\r\n'],
  '/interim': ['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'],
  '/spaced': ['HTTP/1.1 201\r\nCONTENT-LENGTH: \t 5 \r\nconnection: Keep-Alive\r\n\r\nhello'],
  '/empty204': ['HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n'],
  '/close': ['HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbye'],
  '/http10': ['HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close'],
  '/bad-status': ['HTTP/2 200 OK\r\n\r\n'],
  '/bad-length': ['HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd'],
  '/cut': ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly a part'],
  '/extra': ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n\r\n'],
  '/headers': ['HTTP/1.1 429 Too Many\r\nRetry-After: 2\r\ncontent-TYPE: application/json\r\nX-Other: y\r\nContent-Type:  text/plain \r\nContent-Length: 0\r\n\r\n'],
};

describe('load transport', () => {
  let server: Server;
  let origin: string;
  let connections = 0;
  const requests: string[] = [];
  beforeAll(async () => {
    server = createServer((s: Socket) => {
      connections++;
      let buf = '';
      s.on('data', async (d) => {
        buf += d.toString('latin1');
        for (let end = buf.indexOf('\r\n\r\n'); end >= 0; end = buf.indexOf('\r\n\r\n')) {
          const head = buf.slice(0, end);
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
          if (buf.length < end + 4 + length) return;
          requests.push(buf.slice(0, end + 4 + length));
          buf = buf.slice(end + 4 + length);
          const path = head.split(' ')[1];
          if (path === '/never') continue;
          const pieces = SCRIPTS[path] ?? [`HTTP/1.1 200 OK\r\nContent-Length: ${path.length}\r\n\r\n${path}`];
          for (const p of pieces) {
            s.write(p);
            await new Promise((r) => setTimeout(r, 5));
          }
          if (path === '/http10' || path === '/cut') s.end();
        }
      });
      s.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reads Content-Length, chunked (extensions, trailers), interim 1xx and no-body answers, split anywhere, on one kept-alive connection', async () => {
    const c = new Connections(origin, 1);
    const before = connections;
    expect(await send(c, get('/length'))).toMatchObject({ status: 200, body: '{"a":"bcd"}' });
    expect(await send(c, get('/chunked'))).toMatchObject({ status: 200, body: 'Wikipedia' });
    expect(await send(c, get('/interim'))).toMatchObject({ status: 200, body: 'ok' });
    expect(await send(c, get('/empty204'))).toMatchObject({ status: 204, body: '' });
    expect(await send(c, get('/spaced'))).toMatchObject({ status: 201, body: 'hello' });
    expect(await send(c, get('/length'), false)).toMatchObject({ status: 200, body: '' });
    expect(connections - before).toBe(1);
    await c.destroy();
  });

  it('reads a body until close (HTTP/1.0) and opens a new connection after Connection: close', async () => {
    const c = new Connections(origin, 1);
    const before = connections;
    await answersMatch(c, [['/http10', { status: 200, body: 'until close' }], ['/close', { status: 200, body: 'bye' }], ['/after', { status: 200, body: '/after' }]]);
    expect(connections - before).toBe(3);
    await c.destroy();
  });

  it('fails the request, not the run, on an answer it cannot read, and goes on on a new connection', async () => {
    const c = new Connections(origin, 1);
    await answersMatch(c, [['/bad-status', { error: 'BAD_STATUS_LINE' }], ['/bad-length', { error: 'BAD_CONTENT_LENGTH' }], ['/cut', { status: 200, error: 'SOCKET_CLOSED' }]]);
    // Bytes after an answer on a one-request connection: the answer stands, the connection is dropped.
    const before = connections;
    await answersMatch(c, [['/extra', { status: 200, body: 'ok' }], ['/next', { status: 200, body: '/next' }]]);
    expect(connections - before).toBe(2);
    await c.destroy();
  });

  it('hands over the header block: the last of a repeated header wins, names in any case', async () => {
    const c = new Connections(origin, 1);
    const got = await send(c, get('/headers'));
    expect(got.status).toBe(429);
    expect(headerIn(got.head!, 'content-type')).toBe('text/plain');
    expect(headerIn(got.head!, 'retry-after')).toBe('2');
    expect(headerIn(got.head!, 'x-missing')).toBeUndefined();
    await c.destroy();
  });

  it('writes what undici writes: host, keep-alive, the headers, a Content-Length for a body; refuses a header that would split the request', async () => {
    const c = new Connections(origin, 1);
    requests.length = 0;
    await send(c, { method: 'POST', path: '/post', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"é":1}' });
    await send(c, { method: 'POST', path: '/action', headers: {} });
    const port = new URL(origin).port;
    expect(requests[0]).toBe(`POST /post HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: keep-alive\r\nauthorization: Bearer t\r\ncontent-type: application/json\r\ncontent-length: 8\r\n\r\n${Buffer.from('{"é":1}').toString('latin1')}`);
    expect(requests[1]).toBe(`POST /action HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: keep-alive\r\ncontent-length: 0\r\n\r\n`);
    expect(await send(c, get('/x', { 'x-evil': 'a\r\nx-injected: 1' }))).toMatchObject({ error: 'INVALID_HEADER' });
    // Refused on a later turn, not inside dispatch (the engine sends the next request from onError).
    let inside = true;
    const failedInside = new Promise<boolean>((resolve) => c.dispatch(get('/x', { 'x-evil': 'a\nb' }), { onConnect() {}, onHeaders: () => false, onData() {}, onComplete() {}, onError: () => resolve(inside) }));
    inside = false;
    expect(await failedInside).toBe(false);
    expect(await send(c, get('/with space'))).toMatchObject({ error: 'INVALID_REQUEST' });
    expect(requests).toHaveLength(2);
    await c.destroy();
  });

  it('queues requests beyond its connections in order, aborts one in flight or queued, and fails what is left at destroy', async () => {
    const c = new Connections(origin, 1);
    let abortFirst: ((err?: Error) => void) | undefined;
    let abortQueued: ((err?: Error) => void) | undefined;
    const first = send(c, get('/never'), true, (a) => (abortFirst = a));
    const queued = send(c, get('/queued-aborted'), true, (a) => (abortQueued = a));
    const second = send(c, get('/second'));
    abortQueued!(new Error('gone'));
    expect(await queued).toMatchObject({ error: 'gone' });
    await new Promise((r) => setTimeout(r, 20));
    abortFirst!();
    expect(await first).toMatchObject({ error: 'ABORTED' });
    expect(await second).toMatchObject({ status: 200, body: '/second' });
    const left = send(c, get('/never'));
    await new Promise((r) => setTimeout(r, 20));
    await c.destroy();
    expect(await left).toMatchObject({ error: 'CLOSED' });
    expect(await send(c, get('/late'))).toMatchObject({ error: 'CLOSED' });
  });

  it('fails a request to a port nobody listens on with the socket error', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const c = new Connections(`http://127.0.0.1:${port}`, 1);
    expect(await send(c, get('/'))).toMatchObject({ error: 'ECONNREFUSED' });
    await c.destroy();
  });
});

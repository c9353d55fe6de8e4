// A misbehaving proxy in front of the embedded reference, for running the FULL suite against a
// hostile target. It relays every request byte for byte (streamed, so it can also drip, bomb and
// redirect, which src/mutants/proxy.ts, a buffering string rewriter, cannot), and answers a bounded
// subset of API requests with the hostility instead of the reference's answer. The token endpoint and
// the test-control API are always relayed, so the preflight and the fixtures work and every failure
// the run reports comes from a hostile answer, which the proxy counts.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

export type Misbehaviour = 'drip' | 'gzip-bomb' | 'deep-json' | 'storm-429' | 'redirect';

export interface HostileProxyOptions {
  /** Origin of the reference (its base_url); control_url must live under it. */
  upstream: string;
  misbehaviour: Misbehaviour;
  /** Paths never touched (token endpoint, control prefix). */
  exempt: (path: string) => boolean;
  /** When given, only request lines (`GET /api/...`) it accepts are eligible. */
  only?: (line: string) => boolean;
  /** Misbehave on every `every`-th eligible request (1 = all) ... */
  every: number;
  /** ... at most this many times in all (bounds the run: each hostile answer may cost a budget). */
  maxHits: number;
  /** For 'storm-429': how many follow-up requests on a stormed request line get a 429 too (default STORM; Infinity: it never recovers). */
  stormFollowUps?: number;
  /** For 'redirect': where the Location header points (another host). */
  redirectTo?: string;
  /**
   * Relayed PUT requests to `path` have their JSON body shown to onPut (webhook / IdP registration);
   * when onPut returns a promise, the PUT is relayed once it settles (the run waits for the tap).
   */
  tapPut?: { path: string; onPut: (body: unknown) => void | Promise<unknown> }[];
}

export interface HostileProxy {
  baseUrl: string;
  /** Hostile answers sent, by request line (`GET /api/...`). */
  hits: string[];
  /** Eligible requests seen. */
  eligible: number;
  close(): Promise<void>;
}

/** 1e6-deep array: 2,000,000 bytes, under the client's 2 MiB body limit, so only the depth bound refuses it. */
const DEEP = Buffer.from(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);

let bomb: Buffer | undefined;
function gzipBomb(): Buffer {
  if (!bomb) {
    // One member of 64 MiB of zeros compresses to ~64 KiB; gunzip decodes concatenated members as one
    // stream, so 24 members are ~1.5 MiB on the wire (under the 2 MiB raw limit) and 1.5 GiB decoded.
    const member = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    bomb = Buffer.concat(Array.from({ length: 24 }, () => member));
  }
  return bomb;
}
export const GZIP_BOMB_DECODED_BYTES = 24 * 64 * 1024 * 1024;

function misbehave(kind: Misbehaviour, req: http.IncomingMessage, res: http.ServerResponse, redirectTo: string | undefined): void {
  switch (kind) {
    case 'drip': {
      // Headers at once, then one byte every 150 ms, never finishing; at most 400 bytes (60 s), so
      // the proxy itself never loops without end if the client stops listening without closing.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      let n = 0;
      const t = setInterval(() => {
        if (res.destroyed || ++n > 400) {
          clearInterval(t);
          res.destroy();
          return;
        }
        res.write(' ');
      }, 150);
      res.on('close', () => clearInterval(t));
      return;
    }
    case 'gzip-bomb': {
      const body = gzipBomb();
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
      res.end(body);
      return;
    }
    case 'deep-json':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(DEEP.length) });
      res.end(DEEP);
      return;
    case 'storm-429':
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ error_reason: 'ErrorRateLimited', error_description: 'slow down', error_category: { category: 'CategoryTransientFailure', http_status_code: 429 }, error_details: [] }));
      return;
    case 'redirect':
      res.writeHead(307, { location: `${redirectTo ?? 'http://localhost:9'}${req.url ?? '/'}`, 'content-length': '0' });
      res.end();
      return;
  }
}

/** Follow-up 429s after the first one on a request line: 9 s of Retry-After, past several budgets. */
const STORM = 8;

export async function startHostileProxy(opts: HostileProxyOptions): Promise<HostileProxy> {
  const upstream = new URL(opts.upstream);
  // Built before the run: gzipSync of 64 MiB blocks this process's event loop (the runner's too) for
  // a second or more under load, which timed out unrelated requests in flight (TIMEOUT, not the bomb).
  if (opts.misbehaviour === 'gzip-bomb') gzipBomb();
  // Idle upstream sockets are dropped after 4 s, before the reference closes them (its keep-alive
  // timeout is 10 s): reusing one as the reference closes it would fail a relayed request.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32, timeout: 4_000 });
  const state: HostileProxy = { baseUrl: '', hits: [], eligible: 0, close: async () => undefined };
  // A 429 storm, not a blip: once a request line got a 429, its next STORM requests (the client's
  // retries) get one too, then it recovers so one path cannot fail the whole run.
  const storming = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0];
    const line = `${req.method} ${path}`;
    if (!opts.exempt(path) && (!opts.only || opts.only(line))) {
      state.eligible++;
      const left = storming.get(line) ?? 0;
      const again = opts.misbehaviour === 'storm-429' && left > 0;
      if (again) storming.set(line, left - 1);
      if (again || (state.hits.length < opts.maxHits && state.eligible % opts.every === 0)) {
        state.hits.push(line);
        if (opts.misbehaviour === 'storm-429' && !again) storming.set(line, opts.stormFollowUps ?? STORM);
        req.resume();
        return misbehave(opts.misbehaviour, req, res, opts.redirectTo);
      }
    }
    const tap = req.method === 'PUT' ? opts.tapPut?.find((t) => t.path === path) : undefined;
    if (tap) {
      // Buffered (a small JSON body) so the tap sees it whole, then relayed unchanged.
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        let held: unknown;
        try {
          held = tap.onPut(JSON.parse(raw.toString('utf8')));
        } catch {
          // not JSON: nothing to learn; the upstream answers it
        }
        void Promise.resolve(held).catch(() => undefined).then(() => relay(req, res, url, raw));
      });
      return;
    }
    relay(req, res, url);
  });
  function relay(req: http.IncomingMessage, res: http.ServerResponse, url: string, body?: Buffer): void {
    const headers = { ...req.headers, host: upstream.host };
    // Relay from the client's own loopback address (127.0.0.x), so the reference's per-IP token limit
    // stays per client address behind the proxy (limits.token.rate-limit-split sends from 127.0.0.2, ...).
    const src = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const localAddress = /^127\./.test(upstream.hostname) && /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(src) ? src : undefined;
    const up = http.request({ agent, host: upstream.hostname, port: upstream.port, method: req.method, path: url, headers, ...(localAddress ? { localAddress } : {}) }, (ur) => {
      // Connection and Keep-Alive are hop-by-hop: relayed, the reference's "timeout=10" stood in for
      // this server's own keep-alive timeout (5 s then), so the client reused sockets this server had
      // closed, and a check the proxy never touched failed as CONNECTION_RESET ("other side closed":
      // about one run in ten of test/hostile/webhooks.test.ts). The client must learn this server's.
      const { connection: _c, 'keep-alive': _k, ...relayed } = ur.headers;
      res.writeHead(ur.statusCode ?? 502, relayed);
      ur.pipe(res);
    });
    up.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    if (body) up.end(body);
    else req.pipe(up);
  }
  // Longer than any wait of the client between two requests (a Retry-After sleep): a socket the proxy
  // closes for idleness just as the client reuses it is a keep-alive race of the harness, not hostility.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      agent.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

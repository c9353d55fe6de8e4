// Mutant-bank interception proxy: sits between the engine and a reference server on loopback for
// variants that a response transform cannot express — those that must see the request (its body),
// rewrite it, change the transfer framing (chunked, no content-length), or rewrite webhook payloads.
// It serves base_url (API and /__control); the card-tokenization environment stays direct.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { operationMatcher } from '../client/operation-location.ts';
import { loadModel } from '../model/index.ts';
import type { Model, OperationId, WebhookId } from '../model/types.ts';
import type { TargetProfile } from '../profile/types.ts';
import { withCategories } from './categories.ts';
import { asRecord, parseJson, type Json } from './json.ts';

export interface ProxyRequest {
  /** The spec operation the method and path match (profile paths for those the spec does not show). */
  operationId?: OperationId;
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query string without '?', '' when none. */
  query: string;
  /** Lower-case header names, first value only. */
  headers: Record<string, string>;
  body: Buffer;
  /** Parsed JSON body, undefined when empty or not JSON. */
  json?: Json;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Parsed JSON body, undefined when empty or not JSON. */
  json?: Json;
}

export interface ProxyContext {
  /** The reference's own profile (original URLs and credentials). */
  profile: TargetProfile;
  /** The spec model (alias pairs, webhook ids): variants read spec facts here, never restate them. */
  model: Model;
  /** Per-server scratch state of the variant. */
  state: Map<string, unknown>;
}

export interface ProxyHooks {
  /** Rewrite the request (mutate or return a new one), or answer it directly (return a response). */
  request?(req: ProxyRequest, ctx: ProxyContext): ProxyRequest | ProxyResponse | void;
  /** Rewrite the response the reference gave (mutate or return a new one). */
  response?(req: ProxyRequest, res: ProxyResponse, ctx: ProxyContext): ProxyResponse | void;
  /** Rewrite a webhook payload on its way from the reference to the engine's receiver. */
  webhook?(path: string, body: Json, ctx: ProxyContext, webhook?: WebhookId): Json | undefined;
  /** Content-Type of relayed webhook deliveries (default: the reference's own); needs `webhook`. */
  webhookContentType?: string;
  /** Deliveries made of one webhook, in order (default: the one body); needs `webhook`. */
  webhookDeliveries?(path: string, body: Json, ctx: ProxyContext): Json[];
  /** Delay before each relayed webhook delivery (ms); needs `webhook`. */
  webhookDelayMs?: number;
  /** HTTP method of relayed webhook deliveries (default: the reference's own, POST); needs `webhook`. */
  webhookMethod?: string;
  /** Milliseconds to hold each API answer (relayed or answered by `request`) before sending it. */
  delayMs?(req: ProxyRequest, ctx: ProxyContext): number;
  /** Send every response body gzip-compressed (Content-Encoding: gzip). */
  gzip?: boolean;
  /** Send every response with chunked transfer encoding (no content-length). */
  chunked?: boolean;
}

export interface InterceptProxy {
  /** Origin the engine talks to instead of the reference's base_url. */
  baseUrl: string;
  close(): Promise<void>;
}

const CONTROL_PREFIX = '/__control';
const RELAY_PREFIX = '/__mutant-relay';
const MAX_BODY = 8 * 1024 * 1024;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'proxy-connection', 'upgrade', 'te', 'trailer']);

function flatten(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function readAll(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        req.destroy();
        reject(new Error('body too large for the mutant proxy'));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The proxy's client address when it is an IPv4 loopback one: forwarding from the same address keeps
 * the reference's per-IP rate limit per client address (limits.token.rate-limit-split sends from
 * 127.0.0.2, 127.0.0.3, ...); the agent keeps one socket pool per local address.
 */
function loopbackSource(req: http.IncomingMessage): string | undefined {
  const a = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a) ? a : undefined;
}

/** Errors of a reused kept-alive socket the upstream had closed: the request never reached it. */
const RACED_SOCKET = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Idle kept-alive sockets are dropped after this, well before the reference closes its side
 * (keepAliveTimeout 10 s, src/reference/index.ts): a socket is then never reused as the upstream
 * closes it, which a loaded loop, reading the close late, otherwise meets (a race answered 502).
 */
export const PROXY_IDLE_SOCKET_MS = 4_000;

function forward(agent: http.Agent, origin: URL, method: string, pathAndQuery: string, headers: Record<string, string>, body: Buffer, retried = false, from?: string): Promise<ProxyResponse> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.has(k)) h[k] = v;
    if (body.length > 0 || method === 'POST' || method === 'PUT' || method === 'PATCH') h['content-length'] = String(body.length);
    const req = http.request({ agent, host: origin.hostname, port: origin.port, method, path: pathAndQuery, headers: h, ...(from ? { localAddress: from } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const rh = flatten(res.headers);
        for (const k of Object.keys(rh)) if (HOP_BY_HOP.has(k)) delete rh[k];
        resolve({ status: res.statusCode ?? 502, headers: rh, body: text, json: parseJson(text) });
      });
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A kept-alive socket the upstream closed as it was reused (a race, not the variant): the request
      // never reached it, so it is sent once more on a fresh socket instead of answering 502 (seen as a
      // false positive of limits.token.rate-limit's burst through the proxy under load). A write to a
      // socket whose close this loop has not yet read fails EPIPE instead (two benign variants' false
      // positives on a loaded machine).
      if (!retried && req.reusedSocket && RACED_SOCKET.has(err.code ?? '')) return void forward(agent, origin, method, pathAndQuery, headers, body, true, from).then(resolve, reject);
      reject(err);
    });
    req.end(body);
  });
}

function send(res: http.ServerResponse, out: ProxyResponse, chunked: boolean, gzip = false): void {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(out.headers)) if (k !== 'content-length' && k !== 'transfer-encoding') headers[k] = v;
  let buf = Buffer.from(out.body, 'utf8');
  if (gzip && buf.length > 0) {
    buf = gzipSync(buf);
    headers['content-encoding'] = 'gzip';
  }
  if (!chunked) {
    headers['content-length'] = String(buf.length);
    res.writeHead(out.status, headers);
    res.end(buf);
    return;
  }
  // No content-length: node frames the body with chunked transfer encoding. Two writes make the
  // chunking visible on the wire.
  res.writeHead(out.status, headers);
  if (buf.length === 0) return void res.end();
  const mid = Math.max(1, Math.floor(buf.length / 2));
  res.write(buf.subarray(0, mid));
  setImmediate(() => res.end(buf.subarray(mid)));
}

/**
 * Starts a proxy in front of `profile.base_url`. The returned baseUrl replaces base_url (and
 * base_url + /__control replaces control_url) in the profile handed to the engine.
 */
export async function startInterceptProxy(profile: TargetProfile, hooks: ProxyHooks, host = '127.0.0.1'): Promise<InterceptProxy> {
  const origin = new URL(profile.base_url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: PROXY_IDLE_SOCKET_MS });
  const model = await loadModel();
  const ctx: ProxyContext = { profile, model, state: new Map() };
  const webhookIds = new Map(model.webhooks.flatMap((w) => (w.path ? [[w.path, w.id as WebhookId] as const] : [])));
  // The api server's operations, located as the engine locates them (profile paths where the spec shows none).
  const operationOf = operationMatcher(model, profile, 'api');
  let relayTarget: string | undefined;
  let selfOrigin = '';

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      const query = q === -1 ? '' : url.slice(q + 1);
      const raw = await readAll(req);

      // Webhook relay: the reference posts here; the hook rewrites; the engine's receiver gets it.
      if (path.startsWith(RELAY_PREFIX)) {
        const rest = path.slice(RELAY_PREFIX.length) || '/';
        if (!relayTarget) return send(res, { status: 503, headers: {}, body: '' }, false);
        let body = parseJson(raw.toString('utf8'));
        if (hooks.webhook && body !== undefined) body = hooks.webhook(rest, body, ctx, webhookIds.get(rest)) ?? body;
        const target = new URL(relayTarget.replace(/\/$/, '') + rest);
        const wh = flatten(req.headers);
        if (hooks.webhookContentType) wh['content-type'] = hooks.webhookContentType;
        const bodies: (Json | undefined)[] = body !== undefined && hooks.webhookDeliveries ? hooks.webhookDeliveries(rest, body, ctx) : [body];
        let out: ProxyResponse = { status: 204, headers: {}, body: '' };
        for (const b of bodies) {
          if (hooks.webhookDelayMs) await new Promise((r) => setTimeout(r, hooks.webhookDelayMs).unref());
          out = await forward(agent, target, hooks.webhookMethod ?? req.method ?? 'POST', target.pathname + target.search, wh, Buffer.from(b === undefined ? raw : JSON.stringify(b)));
        }
        return send(res, out, false);
      }

      const operationId = operationOf(req.method ?? 'GET', path);
      let preq: ProxyRequest = { ...(operationId ? { operationId } : {}), method: req.method ?? 'GET', path, query, headers: flatten(req.headers), body: raw, json: parseJson(raw.toString('utf8')) };
      // Webhook registration: point the reference at the relay when the variant rewrites webhooks.
      const registration = asRecord(preq.json);
      if (hooks.webhook && preq.method === 'PUT' && path === `${CONTROL_PREFIX}/webhooks` && typeof registration?.base_url === 'string') {
        relayTarget = registration.base_url;
        preq.json = { ...registration, base_url: `${selfOrigin}${RELAY_PREFIX}` };
        preq.body = Buffer.from(JSON.stringify(preq.json));
      }
      const hold = hooks.delayMs?.(preq, ctx) ?? 0;
      const held = hold > 0 ? new Promise((r) => setTimeout(r, hold).unref()) : undefined;
      if (hooks.request) {
        const r = withCategories(ctx.model.categoryFor, () => hooks.request!(preq, ctx));
        if (r && 'status' in r) {
          await held;
          return send(res, r, !!hooks.chunked, !!hooks.gzip);
        }
        if (r) preq = r;
      }
      let out = await forward(agent, origin, preq.method, preq.query ? `${preq.path}?${preq.query}` : preq.path, preq.headers, preq.body, false, /^127\./.test(origin.hostname) ? loopbackSource(req) : undefined);
      if (hooks.response) out = withCategories(ctx.model.categoryFor, () => hooks.response!(preq, out, ctx)) ?? out;
      await held;
      send(res, out, !!hooks.chunked, !!hooks.gzip);
    })().catch((err) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`mutant proxy: ${(err as Error).message}`);
      } else res.destroy();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  selfOrigin = `http://${host}:${port}`;
  return {
    baseUrl: selfOrigin,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const PROXY_CONTROL_PREFIX = CONTROL_PREFIX;

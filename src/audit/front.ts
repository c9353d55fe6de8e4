// The audit's front door: the base_url and pci_url a client is given. Every request is recorded, the
// fault plan may answer it (429, a stall) or an expired S2S token is answered with its section 7 row
// (the reference mints S2S tokens with the plan's lifetime, so exp and expires_at agree); otherwise it
// is forwarded to the embedded reference and the answer recorded on the way back.
// Calls to the test-control API pass through unrecorded: they are not the client's traffic.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent, request, type Dispatcher } from 'undici';
import type { Model, OperationId } from '../model/types.ts';
import { ErrorFactory } from '../reference/errors.ts';
import { Router, type Route } from '../reference/http.ts';
import { NO_HEADER_SECRETS, redactBody, redactHeaders, type HeaderSecrets } from './redact.ts';
import type { FaultSchedule } from './schedule.ts';
import type { TokenBook } from './tokens.ts';
import type { Exchange } from './types.ts';

/** Body bytes kept per request in the record; a longer body is forwarded but recorded cut. */
const KEEP_BYTES = 256 * 1024;
/** Past this a request body is not read on: the audit answers 400 naming `body` and closes (the reference refuses far less). */
const MAX_BODY_BYTES = 1024 * 1024;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade', 'proxy-connection', 'te', 'trailer']);

export interface FrontOptions {
  model: Model;
  schedule: FaultSchedule;
  book: TokenBook;
  /** Upstream origins of the reference listeners. */
  upstream: { api: string; pci: string };
  /** Paths of the operations the spec does not show (the reference's, from its profile). */
  paths: Record<string, { method: string; path: string }>;
  /** The client's header credentials (profile.operation_auth): masked in every record. */
  headerSecrets?: HeaderSecrets;
  /** Path prefix of the test-control API on base_url (never recorded). */
  controlPrefix?: string;
  record(ex: Omit<Exchange, 'seq'>): Exchange;
}

function routers(o: FrontOptions): Record<'api' | 'pci', Router> {
  const out = { api: new Router(), pci: new Router() };
  for (const op of o.model.operations.values()) {
    const loc = op.pathUnspecified ? o.paths[op.operationId] : { method: op.method, path: op.path };
    if (!loc) continue;
    // Only the match is used: the handler never runs.
    out[op.server].add({ method: loc.method, path: loc.path, operationId: op.operationId, auth: 'none', body: 'none', handler: () => ({ status: 500 }) } as Route);
  }
  return out;
}

function readAll(req: IncomingMessage): Promise<{ raw: Buffer; tooLarge: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (tooLarge: boolean) => {
      if (done) return;
      done = true;
      resolve({ raw: Buffer.concat(chunks), tooLarge });
    };
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        finish(true);
      } else chunks.push(c);
    });
    req.on('end', () => finish(false));
    req.on('error', () => finish(false));
  });
}

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  if (/x-www-form-urlencoded/i.test(contentType ?? '')) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function firstHeader(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export interface Front {
  api: Server;
  pci: Server;
  close(): Promise<void>;
}

export function createFront(o: FrontOptions): Front {
  const match = routers(o);
  const errors = new ErrorFactory(o.model);
  const agent = new Agent({ keepAliveTimeout: 5_000, connections: 32 });

  const forward = async (server: 'api' | 'pci', req: IncomingMessage, raw: Buffer) => {
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    const res = await request(`${o.upstream[server]}${req.url ?? '/'}`, {
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod, headers, body: raw.length > 0 ? raw : undefined, dispatcher: agent, headersTimeout: 30_000, bodyTimeout: 30_000,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
    return { status: res.statusCode, headers: out, body };
  };

  const send = (res: ServerResponse, status: number, headers: Record<string, string | string[]>, body: Buffer) => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  };

  /** The answer the audit gives instead of the reference: a section 7 row from the model. */
  const rowReply = (id: 'ERR-S2S-TOKEN-EXPIRED' | 'ERR-RATE-LIMITED', retryAfter?: number) => {
    const e = errors.rule(id);
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
    return { status: e.status, headers, body: Buffer.from(JSON.stringify(e.body)) };
  };

  const bodyTooLarge = () => {
    const e = errors.invalid('body');
    return { status: e.status, headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' } as Record<string, string | string[]>, body: Buffer.from(JSON.stringify(e.body)) };
  };

  const handle = async (server: 'api' | 'pci', req: IncomingMessage, res: ServerResponse) => {
    const startMs = Date.now();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    const { raw, tooLarge } = await readAll(req);
    if (server === 'api' && o.controlPrefix && (path === o.controlPrefix || path.startsWith(`${o.controlPrefix}/`))) {
      const r = tooLarge ? bodyTooLarge() : await forward(server, req, raw);
      send(res, r.status, r.headers, r.body);
      return;
    }
    const m = match[server].match(method, path);
    const operationId = 'route' in m ? (m.route.operationId as OperationId) : undefined;
    const isToken = operationId === 'createToken';
    const parsed = parseBody(raw.subarray(0, KEEP_BYTES), firstHeader(req.headers['content-type']));
    const token = o.book.lookup(firstHeader(req.headers.authorization));
    const clientId = isToken && parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).client_id : undefined;
    const ex = o.record({
      server, method, path, query: q === -1 ? '' : url.slice(q + 1),
      ...(operationId ? { operationId } : {}),
      headers: redactHeaders(req.headers, o.book, o.headerSecrets ?? NO_HEADER_SECRETS),
      ...(parsed !== undefined ? { body: redactBody(parsed) } : {}),
      bodyText: parsed !== undefined ? JSON.stringify(redactBody(parsed)) : raw.subarray(0, KEEP_BYTES).toString('utf8'),
      startMs,
      ...(token ? { token: { kind: token.kind, n: token.n, ...(token.expiresAtSec !== undefined ? { expiresAtSec: token.expiresAtSec } : {}) } } : {}),
      ...(typeof clientId === 'string' ? { clientId } : {}),
    });
    res.on('close', () => {
      if (!res.writableFinished && ex.abandonedMs === undefined) ex.abandonedMs = Date.now();
    });
    let reply: { status: number; headers: Record<string, string | string[]>; body: Buffer };
    const decision = operationId && !tooLarge ? o.schedule.decide({ isToken, method, path }) : undefined;
    if (tooLarge) {
      reply = bodyTooLarge();
    } else if (token?.kind === 's2s' && token.expiresAtSec !== undefined && Date.now() >= token.expiresAtSec * 1000) {
      ex.injected = { kind: 'expired' };
      reply = rowReply('ERR-S2S-TOKEN-EXPIRED');
    } else if (decision?.kind === 'rate-limit') {
      ex.injected = { kind: 'rate-limit', ...(decision.burst ? { burst: decision.burst } : {}), ...(decision.retryAfter !== undefined ? { retryAfter: decision.retryAfter } : {}) };
      reply = rowReply('ERR-RATE-LIMITED', decision.retryAfter);
    } else {
      if (decision?.kind === 'stall') {
        ex.injected = { kind: 'stall', ms: decision.ms };
        await new Promise<void>((resolve) => {
          if (res.destroyed) return resolve();
          const t = setTimeout(resolve, decision.ms);
          res.once('close', () => {
            clearTimeout(t);
            resolve();
          });
        });
        if (ex.abandonedMs !== undefined) {
          ex.endMs = ex.abandonedMs;
          return;
        }
      }
      reply = await forward(server, req, raw);
      reply.body = learn(ex, reply.status, reply.body);
    }
    ex.status = reply.status;
    const answer = parseBody(reply.body.subarray(0, KEEP_BYTES), 'application/json');
    if (answer !== undefined) ex.responseBody = redactBody(answer, o.book);
    send(res, reply.status, reply.headers, reply.body);
    ex.endMs = Date.now();
  };

  /** Token answers enter the book: kind, and for S2S tokens the expires_at the client was given. */
  const learn = (ex: Exchange, status: number, body: Buffer): Buffer => {
    if (status < 200 || status > 299) return body;
    if (ex.operationId !== 'createToken' && ex.operationId !== 'authorizeUser') return body;
    let v: { access_token?: unknown; expires_at?: unknown } | null;
    try {
      v = JSON.parse(body.toString('utf8'));
    } catch {
      return body;
    }
    if (!v || typeof v.access_token !== 'string') return body;
    if (ex.operationId === 'createToken') {
      o.book.issue(v.access_token, { kind: 's2s', ...(ex.clientId ? { clientId: ex.clientId } : {}), ...(typeof v.expires_at === 'number' ? { expiresAtSec: v.expires_at } : {}), issuedSeq: ex.seq });
    } else o.book.issue(v.access_token, { kind: 'user', issuedSeq: ex.seq });
    return body;
  };

  const listener = (server: 'api' | 'pci') => createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
    handle(server, req, res).catch((e) => {
      process.stderr.write(`audit: failed to answer ${req.method} ${req.url}: ${(e as Error)?.message ?? String(e)}\n`);
      if (!res.headersSent) {
        const r = Buffer.from(JSON.stringify(errors.internal().body));
        send(res, 502, { 'content-type': 'application/json; charset=utf-8' }, r);
      } else res.destroy();
    });
  });
  const api = listener('api');
  const pci = listener('pci');
  const closeOne = (s: Server) => new Promise<void>((r) => {
    s.close(() => r());
    s.closeAllConnections();
  });
  return {
    api,
    pci,
    async close() {
      await Promise.all([closeOne(api), closeOne(pci)]);
      await agent.close();
    },
  };
}

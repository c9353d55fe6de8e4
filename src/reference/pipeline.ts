// Request pipeline shared by the API and card-tokenization listeners:
// route -> bounded body read -> authentication (section 5) -> body parse -> handler -> send.
// Every failure leaves as a section 7 body; an unexpected exception is a 500 with that shape.
// A step continues through a promise only when it really waits (a body to read, the identity-provider
// forms, an asynchronous handler, a latency or a transform): a read with a token answers within the
// request event, as a bare node:http server does.

import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from './auth/index.ts';
import { ApiError } from './errors.ts';
import { rateLimit } from './handlers/token.ts';
import { isJsonMedia, mediaType, readBody, type Ctx, type Match, type Reply, type Route, type Router } from './http.ts';
import type { RefState } from './state/index.ts';
import type { OutgoingResponse, ResponseTransform, TransformRequest } from './types.ts';

export interface PipelineOptions {
  st: RefState;
  router: Router;
  server: 'api' | 'pci';
  bodyLimitBytes: number;
  latencyMs: number;
  /** The delay applies to every Nth response only (1: every response). */
  latencyEvery: number;
  transform?: ResponseTransform;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A status answered with no body at all (fault points only: every error of the reference has the section 7 body). */
class BareStatus extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status} with no body`);
  }
}
const EMPTY_BODY: Record<string, unknown> = {};
const EMPTY_RAW = Buffer.alloc(0);

export function createHandler(p: PipelineOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { st, router } = p;
  const E = st.errors;
  let answered = 0;
  /** No latency and no transform: the answer is written as soon as the reply exists. */
  const direct = !(p.latencyMs > 0) && !p.transform;

  const parse = (ctx: Ctx, route: Route): Record<string, unknown> => {
    const mode = route.body;
    if (mode === 'none') return EMPTY_BODY;
    if (ctx.tooLarge) throw E.invalid('body');
    if (ctx.raw.length === 0) return {};
    const mt = mediaType(ctx.headers['content-type']);
    const text = ctx.raw.toString('utf8');
    if (mode === 'json-or-form' && mt === 'application/x-www-form-urlencoded') {
      return Object.fromEntries(new URLSearchParams(text));
    }
    if (!isJsonMedia(mt)) throw E.invalid('content-type');
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      // A freedom, not a fault (benign.malformed-json-500): section 7 does not show the answer to
      // malformed JSON, so a 500 with the section 7 body is a reading a real server may choose.
      if (st.fault('input.malformed-json-500')) throw E.internal();
      // A fault: a bare 500 with no error body (faulty errors.malformed-json.bare-500).
      if (st.fault('input.malformed-json-bare-500')) throw new BareStatus(500);
      throw E.invalid('body');
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw E.invalid('body');
    return v as Record<string, unknown>;
  };

  const toReply = (e: unknown): Reply => {
    if (e instanceof BareStatus) return { status: e.status };
    let err: ApiError;
    if (e instanceof ApiError) err = e;
    else {
      process.stderr.write(`reference: unexpected error: ${(e as Error)?.stack ?? String(e)}\n`);
      err = E.internal();
    }
    let body = err.body;
    if (st.fault('errors.category-mismatch')) {
      body = { ...body, error_category: { ...body.error_category, http_status_code: err.status === 400 ? 401 : 400 } };
    }
    return { status: err.status, body, headers: err.headers, ruleId: err.ruleId };
  };

  /** Section 7 other rule 1: 3DS approve and decline never return 401. */
  const authFailure = (route: Route, e: unknown): unknown =>
    route.never401 && e instanceof ApiError && e.status === 401 && !st.fault('3ds.auth-401') ? E.rule('ERR-3DS-NOT-FOUND') : e;

  /** Only reachable when a transform throws or the socket is gone. */
  const failed = (res: ServerResponse, e: unknown): void => {
    process.stderr.write(`reference: failed to answer: ${(e as Error)?.message ?? String(e)}\n`);
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': JSON_TYPE });
      res.end(JSON.stringify(E.internal().body));
    } else res.destroy();
  };

  const outgoing = (reply: Reply): OutgoingResponse => {
    const out: OutgoingResponse = {
      status: reply.status,
      headers: reply.headers ? { ...reply.headers } : {},
      body: reply.json ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)),
    };
    if (reply.ruleId) out.ruleId = reply.ruleId;
    if (reply.json !== undefined || reply.body !== undefined) out.headers['content-type'] = JSON_TYPE;
    return out;
  };

  const send = (req: IncomingMessage, res: ServerResponse, out: OutgoingResponse, abort: boolean): void => {
    out.headers['content-length'] = String(Buffer.byteLength(out.body));
    if (abort) out.headers.connection = 'close';
    res.writeHead(out.status, out.headers);
    res.end(out.body);
    if (abort) res.once('finish', () => req.socket.destroySoon?.());
  };

  const sendLater = async (req: IncomingMessage, res: ServerResponse, method: string, path: string, route: Route | undefined, reply: Reply, abort: boolean): Promise<void> => {
    if (p.latencyMs > 0 && ++answered % p.latencyEvery === 0) await new Promise((r) => setTimeout(r, p.latencyMs));
    let out = outgoing(reply);
    if (p.transform) {
      const info: TransformRequest = { method, path, operationId: route?.operationId, headers: req.headers, server: p.server, categoryFor: st.model.categoryFor };
      out = (await p.transform(info, out)) ?? out;
    }
    send(req, res, out, abort);
  };

  const finish = (req: IncomingMessage, res: ServerResponse, method: string, path: string, route: Route | undefined, reply: Reply, abort: boolean): void => {
    if (!direct) {
      sendLater(req, res, method, path, route, reply, abort).catch((e) => failed(res, e));
      return;
    }
    try {
      if (reply.headers === undefined && !abort && (reply.json !== undefined || reply.body !== undefined)) {
        // The common answer (a JSON body, no headers of its own): the headers of outgoing() and send(), in one object.
        const body = reply.json ?? JSON.stringify(reply.body);
        // A number is a valid header value for node:http; String() and the global Buffer lookup cost more per answer.
        res.writeHead(reply.status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      } else send(req, res, outgoing(reply), abort);
    } catch (e) {
      failed(res, e);
    }
  };

  const reply = (ctx: Ctx, res: ServerResponse, r: Reply): void => finish(ctx.req, res, ctx.method, ctx.path, ctx.route, r, ctx.abort);

  /** Body parse and handler, then the answer. */
  const respond = (ctx: Ctx, res: ServerResponse): void => {
    let out: Reply | Promise<Reply>;
    try {
      ctx.body = parse(ctx, ctx.route);
      out = ctx.route.handler(ctx);
    } catch (e) {
      out = toReply(e);
    }
    if (out instanceof Promise) out.then((r) => reply(ctx, res, r), (e) => reply(ctx, res, toReply(e)));
    else reply(ctx, res, out);
  };

  /** The per-IP limit, then authentication (asynchronous only for the identity-provider forms). */
  const authenticated = (ctx: Ctx, res: ServerResponse): void => {
    let pending: Promise<void> | undefined;
    try {
      // The peer address is read only where the per-IP limit counts it (the token endpoint).
      if (ctx.route.rateLimited) rateLimit(st, 'ip', ctx.req.socket.remoteAddress ?? '');
      try {
        pending = authenticate(ctx, st);
      } catch (e) {
        throw authFailure(ctx.route, e);
      }
    } catch (e) {
      return reply(ctx, res, toReply(e));
    }
    if (!pending) return respond(ctx, res);
    pending.then(() => respond(ctx, res), (e) => reply(ctx, res, toReply(authFailure(ctx.route, e))));
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    let m: Match;
    try {
      m = router.match(method, path);
    } catch (e) {
      return finish(req, res, method, path, undefined, toReply(e), false);
    }
    if ('status' in m) {
      const r = toReply(E.route(m.status, method, path));
      if (m.allow) r.headers = { allow: m.allow.join(', ') };
      return finish(req, res, method, path, undefined, r, false);
    }
    const route = m.route;
    const ctx: Ctx = {
      req,
      method,
      path,
      rawQuery: q === -1 ? '' : url.slice(q + 1),
      params: m.params,
      headers: req.headers,
      route,
      raw: EMPTY_RAW,
      tooLarge: false,
      abort: false,
      body: EMPTY_BODY,
    };
    if (method === 'GET' || method === 'HEAD' || route.body === 'none') return authenticated(ctx, res);
    readBody(req, p.bodyLimitBytes).then(
      (rb) => {
        ctx.raw = rb.raw;
        ctx.tooLarge = rb.tooLarge;
        ctx.abort = rb.abort;
        authenticated(ctx, res);
      },
      (e) => failed(res, e),
    );
  };

  return (req, res) => {
    try {
      handle(req, res);
    } catch (e) {
      failed(res, e);
    }
  };
}

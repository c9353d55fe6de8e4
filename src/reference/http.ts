// HTTP plumbing on plain node:http: a method+path route table with {param} segments, a bounded
// body reader and request contexts. No framework; the reference controls every byte it sends.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ControlOperationId, ErrorRuleId, OperationId } from '../model/types.ts';
import type { User } from './state/store.ts';

/**
 * How a route authenticates (section 5), derived from the operation's x-auth (auth/index.ts authModeOf):
 * - none: no token (token endpoint, card tokenization, control API)
 * - s2s: S2S token only, user-agnostic, no X-Chain-Id (config, validation rules, POST /api/v2/user)
 * - s2s-chain: S2S token + X-Chain-Id, user-agnostic (POST /api/v1/user)
 * - user: user token + X-Chain-Id, or S2S + X-Chain-Id + exactly one identity header
 * - authorize: POST /api/v1/user/authorize, S2S form or identity-provider form
 * - idp: identity-provider headers + X-Chain-Id (POST /api/v1/user/retail)
 * - key: a vendor's own header and value (Route.key), for an operation whose authentication the spec
 *   does not show, served that way only when asked (ReferenceOptions.pciAuth)
 */
export type AuthMode = 'none' | 's2s' | 's2s-chain' | 'user' | 'authorize' | 'idp' | 'key';

/** Request body handling: json (default for POST), json-or-form (token endpoint), none (ignored). */
export type BodyMode = 'json' | 'json-or-form' | 'none';

export interface Caller {
  kind: 's2s' | 'user' | 'idp';
  company_id: string;
  client_id?: string;
  /** Identity-provider exchange: data taken from the provider tokens. */
  idp?: { sub: string; email: string; wallet: string; app_id: string };
}

export interface Ctx {
  req: IncomingMessage;
  method: string;
  path: string;
  rawQuery: string;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  route: Route;
  raw: Buffer;
  tooLarge: boolean;
  /** The client kept sending past the drain cap: answer, then close the connection. */
  abort: boolean;
  caller?: Caller;
  user?: User;
  /** Parsed body (a plain object; {} when the request had none). */
  body: Record<string, unknown>;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** The body already serialised as JSON (a cached view); sent instead of JSON.stringify(body). */
  json?: string;
  headers?: Record<string, string>;
  /** The section 7 rule an error reply renders (ApiError.ruleId), carried to OutgoingResponse. */
  ruleId?: ErrorRuleId;
}

export interface Route {
  method: string;
  path: string;
  /** operationId of spec/openapi.yaml, or `control:<operationId>` of spec/control.yaml. */
  operationId: OperationId | `control:${ControlOperationId}`;
  auth: AuthMode;
  /** auth 'key': the header (lower case) and the value it must carry. */
  key?: { header: string; value: string };
  body: BodyMode;
  /** 3DS approve/decline: token failures never answer 401 (section 7 other rule 1). */
  never401?: boolean;
  /** Counted by the per-IP rate limiter before anything else (section 8, token endpoint). */
  rateLimited?: boolean;
  handler(ctx: Ctx): Reply | Promise<Reply>;
}

export type Match = { readonly route: Route; readonly params: Record<string, string> } | { status: 404 | 405; allow?: string[] };

const EMPTY: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class Router {
  /**
   * Static paths by method, then by path length: a request's path is a fresh string each time, and
   * comparing it with the few paths of its length costs less than hashing it for a Map lookup.
   */
  private readonly exact = new Map<string, { path: string; match: Match }[][]>();
  private readonly methodsByPath = new Map<string, string[]>();
  private readonly dynamic: { segments: string[]; route: Route }[] = [];

  add(route: Route): void {
    if (route.path.includes('{')) {
      this.dynamic.push({ segments: route.path.split('/'), route });
    } else {
      let byLength = this.exact.get(route.method);
      if (!byLength) this.exact.set(route.method, (byLength = []));
      // A static path always matches the same way: its match is built here, not per request.
      const bucket = (byLength[route.path.length] ??= []);
      const entry = { path: route.path, match: { route, params: EMPTY } };
      // The same method and path added twice: the later route wins, as a Map.set would.
      const at = bucket.findIndex((e) => e.path === route.path);
      if (at === -1) bucket.push(entry);
      else bucket[at] = entry;
      const m = this.methodsByPath.get(route.path) ?? [];
      m.push(route.method);
      this.methodsByPath.set(route.path, m);
    }
  }

  private staticMatch(method: string, path: string): Match | undefined {
    const bucket = this.exact.get(method)?.[path.length];
    if (bucket !== undefined) for (const e of bucket) if (e.path === path) return e.match;
    return undefined;
  }

  match(method: string, path: string): Match {
    const hit = this.staticMatch(method, path);
    if (hit) return hit;
    const allow = this.methodsByPath.get(path)?.slice() ?? [];
    const parts = path.split('/');
    for (const d of this.dynamic) {
      if (d.segments.length !== parts.length) continue;
      let params: Record<string, string> | undefined = {};
      for (let i = 0; i < parts.length; i++) {
        const s = d.segments[i];
        if (s.charCodeAt(0) === 123 /* { */) {
          if (parts[i] === '') {
            params = undefined;
            break;
          }
          try {
            params[s.slice(1, -1)] = decodeURIComponent(parts[i]);
          } catch {
            params = undefined;
            break;
          }
        } else if (s !== parts[i]) {
          params = undefined;
          break;
        }
      }
      if (!params) continue;
      if (d.route.method === method) return { route: d.route, params };
      allow.push(d.route.method);
    }
    return allow.length > 0 ? { status: 405, allow } : { status: 404 };
  }
}

/** Bytes read past the limit before the reader gives up and closes the connection. */
const DRAIN_CAP = 16 * 1024 * 1024;

export interface RawBody {
  raw: Buffer;
  tooLarge: boolean;
  /** The client kept sending past DRAIN_CAP: answer, then close the connection. */
  abort: boolean;
}

const NO_BODY: RawBody = { raw: Buffer.alloc(0), tooLarge: false, abort: false };

/** Reads the body keeping at most `limit` bytes; a longer body is drained (not buffered) and flagged. */
export function readBody(req: IncomingMessage, limit: number): Promise<RawBody> {
  const len = req.headers['content-length'];
  if ((len === undefined || len === '0') && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve(NO_BODY);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    let done = false;
    const finish = (abort: boolean) => {
      if (done) return;
      done = true;
      req.removeListener('data', onData);
      resolve({ raw: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks, size), tooLarge, abort });
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (!tooLarge && size > limit) {
        tooLarge = true;
        chunks.length = 0;
      }
      if (tooLarge) {
        if (size > DRAIN_CAP) {
          req.pause();
          finish(true);
        }
        return;
      }
      chunks.push(chunk);
    };
    if (len !== undefined && Number(len) > DRAIN_CAP) {
      tooLarge = true;
      finish(true);
      return;
    }
    req.on('data', onData);
    req.on('end', () => finish(false));
    req.on('error', () => finish(true));
    req.on('aborted', () => finish(true));
  });
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(h: string | undefined): string {
  if (!h) return '';
  const semi = h.indexOf(';');
  return (semi === -1 ? h : h.slice(0, semi)).trim().toLowerCase();
}

export function isJsonMedia(mt: string): boolean {
  return mt === 'application/json' || (mt.startsWith('application/') && mt.endsWith('+json'));
}

/** The first value of a header; '' counts as absent. */
export function header(ctx: { headers: IncomingHttpHeaders }, name: string): string | undefined {
  const v = ctx.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}

// ULID-like ids: a benign variant rewrites every non-user UUID the reference hands out to a
// deterministic 26-character Crockford base32 id, and maps it back on the way in (the spec does not
// fix the id format of cards, wallets, challenges, recipients, estimations, activities or details).

import type { ProxyContext, ProxyHooks } from './proxy.ts';
import { proxyJson } from './proxy-edits.ts';
import { isObject, type Json } from './json.ts';
import { is2xx, mapDeep, walk } from './transforms.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A deterministic ULID-shaped id (26 Crockford base32 characters) for a UUID. */
export function ulidOf(uuid: string): string {
  let n = BigInt(`0x${uuid.replace(/-/g, '')}`);
  let s = '';
  for (let i = 0; i < 26; i++) {
    s = CROCKFORD[Number(n & 31n)] + s;
    n >>= 5n;
  }
  return s;
}

interface IdState {
  back: Map<string, string>;
  users: Set<string>;
}

function idState(ctx: ProxyContext): IdState {
  let s = ctx.state.get('ids') as IdState | undefined;
  if (!s) {
    s = { back: new Map(), users: new Set() };
    ctx.state.set('ids', s);
  }
  return s;
}

/** Rewrites UUID values to ULID-like ids, except user ids (section 2 fixes those as UUIDs). */
function toUlids(body: Json, s: IdState, userIdAtTop = false): Json {
  walk(body, (o) => {
    if (typeof o.user_id === 'string') s.users.add(o.user_id);
  });
  if (userIdAtTop && isObject(body) && typeof body.id === 'string') s.users.add(body.id);
  return mapDeep(body, (v) => {
    if (typeof v !== 'string' || !UUID_RE.test(v) || s.users.has(v)) return v;
    const u = ulidOf(v);
    s.back.set(u, v);
    return u;
  });
}

function fromUlids(v: Json, s: IdState): Json {
  return mapDeep(v, (x) => (typeof x === 'string' ? (s.back.get(x) ?? x) : x));
}

export const ulidProxy: ProxyHooks = {
  request(req, ctx) {
    const s = idState(ctx);
    if (s.back.size === 0) return;
    req.path = req.path
      .split('/')
      .map((seg) => {
        let d: string;
        try {
          d = decodeURIComponent(seg);
        } catch {
          return seg;
        }
        return s.back.has(d) ? encodeURIComponent(s.back.get(d)!) : seg;
      })
      .join('/');
    if (req.query) {
      const q = new URLSearchParams(req.query);
      for (const [k, v] of [...q.entries()]) if (s.back.has(v)) q.set(k, s.back.get(v)!);
      req.query = q.toString();
    }
    if (req.json !== undefined) {
      req.json = fromUlids(req.json, s);
      req.body = Buffer.from(JSON.stringify(req.json));
    }
    return req;
  },
  response(req, res, ctx) {
    if (res.json === undefined || !is2xx(res.status)) return;
    // Answers whose top-level id is the user's (section 2 fixes user ids as UUIDs).
    const userAtTop = ['registerRetailUser', 'createUserV1', 'createUserV2', 'getUserV1', 'getUserV2'].includes(req.operationId ?? '');
    return proxyJson(res, toUlids(res.json, idState(ctx), userAtTop));
  },
  webhook(_path, body, ctx) {
    return toUlids(body, idState(ctx));
  },
};

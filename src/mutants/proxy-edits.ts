// Helpers for variants that mutate through the interception proxy (proxy.ts): answers made up by the
// proxy, edited JSON bodies, and what the reference's profile knows.

import { createHmac } from 'node:crypto';
import type { AliasRuleId, OperationId } from '../model/types.ts';
import type { ProxyHooks, ProxyResponse } from './proxy.ts';
import { asRecord, has, isObject, parseJson, type Json, type JsonObject } from './json.ts';
import { errorBody, JSON_TYPE } from './transforms.ts';

export { has } from './json.ts';

export function proxyError(status: number, reason: string, message: string, field?: string): ProxyResponse {
  const body = errorBody(status, reason, message, field);
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(body), json: body };
}

/** A proxy response whose JSON body was edited. */
export function proxyJson(res: ProxyResponse, body: Json): ProxyResponse {
  return { ...res, body: JSON.stringify(body), json: body };
}

/** Refuses `op` when its body carries only the deprecated name of alias rule `rule` (the pair comes from the model). */
export function refuseAliasOnly(op: OperationId, rule: AliasRuleId): ProxyHooks {
  return {
    request(req, ctx) {
      const a = ctx.model.aliasRule(rule);
      if (req.operationId === op && has(req.json, a.old) && !has(req.json, a.new)) return proxyError(400, 'ErrorMissingField', `${a.new} is required`, a.new);
    },
  };
}

/** Edits the webhook payloads alias rule `rule` is about (its webhook, from the model): `edit(body, old, preferred)`. */
export function onAliasWebhook(rule: AliasRuleId, edit: (body: JsonObject, old: string, preferred: string) => Json | void): NonNullable<ProxyHooks['webhook']> {
  return (path, body, ctx, id) => {
    const a = ctx.model.aliasRule(rule);
    const mine = a.webhook !== undefined && (a.webhook === path || a.webhook === id);
    return mine && isObject(body) ? (edit(body, a.old, a.new) ?? body) : body;
  };
}

/**
 * Re-signs the access_token of a successful `op` answer with the profile's HS256 secret after `edit`
 * changed its claims: a validly signed token with wrong claims (the header is kept as it was).
 * `syncExpiresAt` also moves the answer's expires_at to the edited exp; `alg: 'HS512'` signs with
 * HMAC-SHA512 and says so in the header (a token of another algorithm than section 5's HS256).
 */
export function resignedToken(
  op: OperationId,
  secret: 's2s_signing_secret' | 'user_token_signing_secret',
  edit: (claims: JsonObject) => void,
  opts: { syncExpiresAt?: boolean; alg?: 'HS512' } = {},
): ProxyHooks {
  return {
    response(req, res, ctx) {
      const key = ctx.profile[secret];
      const answer = asRecord(res.json);
      if (req.operationId !== op || res.status < 200 || res.status >= 300 || typeof answer?.access_token !== 'string' || !key) return;
      const [h, p] = answer.access_token.split('.');
      const claims = parseJson(Buffer.from(p ?? '', 'base64url').toString());
      if (!isObject(claims)) return;
      edit(claims);
      let head = h ?? '';
      if (opts.alg) {
        const header = parseJson(Buffer.from(head, 'base64url').toString());
        if (!isObject(header)) return;
        head = Buffer.from(JSON.stringify({ ...header, alg: opts.alg })).toString('base64url');
      }
      const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
      const sig = createHmac(opts.alg === 'HS512' ? 'sha512' : 'sha256', Buffer.from(key)).update(`${head}.${body}`).digest('base64url');
      const expires = opts.syncExpiresAt && typeof answer.expires_at === 'number' && claims.exp ? { expires_at: claims.exp } : {};
      return proxyJson(res, { ...answer, access_token: `${head}.${body}.${sig}`, ...expires });
    },
  };
}

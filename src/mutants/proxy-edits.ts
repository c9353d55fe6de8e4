// Helpers for variants that mutate through the interception proxy (proxy.ts): answers made up by the
// proxy, edited JSON bodies, and what the reference's profile knows.

import type { AliasRuleId, OperationId } from '../model/types.ts';
import type { ProxyHooks, ProxyResponse } from './proxy.ts';
import { errorBody, isObject, JSON_TYPE } from './transforms.ts';

export function proxyError(status: number, reason: string, message: string, field?: string): ProxyResponse {
  const body = errorBody(status, reason, message, field);
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(body), json: body };
}

/** A proxy response whose JSON body was edited. */
export function proxyJson(res: ProxyResponse, body: any): ProxyResponse {
  return { ...res, body: JSON.stringify(body), json: body };
}

export const has = (o: any, k: string) => isObject(o) && o[k] !== undefined;

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
export function onAliasWebhook(rule: AliasRuleId, edit: (body: Record<string, any>, old: string, preferred: string) => any): NonNullable<ProxyHooks['webhook']> {
  return (path, body, ctx, id) => {
    const a = ctx.model.aliasRule(rule);
    const mine = a.webhook !== undefined && (a.webhook === path || a.webhook === id);
    return mine && isObject(body) ? (edit(body, a.old, a.new) ?? body) : body;
  };
}

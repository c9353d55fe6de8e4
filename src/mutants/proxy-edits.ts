// Helpers for variants that mutate through the interception proxy (proxy.ts): answers made up by the
// proxy, edited JSON bodies, and what the reference's profile knows.

import type { ProxyContext, ProxyResponse } from './proxy.ts';
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

/** Every client id the reference's profile knows (the token endpoint's "known" clients). */
export function knownClients(ctx: ProxyContext): Set<string> {
  const p = ctx.profile;
  return new Set([...p.clients, ...Object.values(p.special_clients ?? {})].flatMap((c) => (c ? [c.client_id] : [])));
}

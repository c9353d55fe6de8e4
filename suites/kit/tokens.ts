// S2S tokens (section 5): the token request of a profile client, and a token cache per target and
// client refreshed the section 8 buffer before expiry (src/client/token-source.ts).

import { field } from '../../src/checks/body.ts';
import { checkStep, expectStep } from '../../src/checks/assert.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import { TokenSource, type IssuedToken } from '../../src/client/index.ts';
import { clockSkewAllowance } from './control.ts';
import { bearer, chainHeader, headers, opLabel } from './http.ts';

/** profile.clients[i], or a skip naming the missing client. */
export function profileClient(ctx: CheckContext, i: number) {
  const c = ctx.profile.clients[i];
  if (!c) ctx.skip(`needs profile.clients[${i}] (the profile has ${ctx.profile.clients.length} client(s))`);
  return c;
}

/** A token request for client i with the three required fields (section 4). */
export function tokenBody(ctx: CheckContext, i = 0): Record<string, string> {
  const c = profileClient(ctx, i);
  return { client_id: c.client_id, client_secret: c.client_secret, grant_type: ctx.model.grantType() };
}

export function requestToken(ctx: CheckContext, body: unknown, opts: { noRetry?: boolean } = {}): Promise<HttpResponse> {
  return ctx.http.send({ op: 'createToken', body, noRetry: opts.noRetry });
}

/** One TokenSource per target and client: checks share a client's token, refreshed the section 8 buffer before expiry. */
const sources = new Map<string, TokenSource<{ ctx: CheckContext; i: number }>>();

async function mintFor({ ctx, i }: { ctx: CheckContext; i: number }): Promise<IssuedToken> {
  const step = `${opLabel(ctx, 'createToken')} for profile.clients[${i}]`;
  const res = await requestToken(ctx, tokenBody(ctx, i));
  expectStep(res, 'createToken', step);
  const token = field(res.json, 'access_token');
  checkStep(typeof token === 'string' && token.length > 0, 'createToken', `${step}: the answer carries no access_token`, res);
  const expiresAt = field(res.json, 'expires_at');
  return { token, ...(typeof expiresAt === 'number' ? { expiresAt } : {}) };
}

/** S2S token for client i, cached per target and client (TokenSource). */
export async function s2sToken(ctx: CheckContext, i = 0): Promise<string> {
  const c = profileClient(ctx, i);
  const key = `${ctx.profile.base_url}|${c.client_id}|${c.client_secret}`;
  let source = sources.get(key);
  if (!source) sources.set(key, (source = new TokenSource({ mint: mintFor, model: ctx.model })));
  // The target's clock may have been moved forward (control API): its notion of expiry is ahead of ours.
  return source.get({ ctx, i }, { aheadSeconds: clockSkewAllowance(ctx) });
}

export async function s2sHeaders(ctx: CheckContext, i = 0, opts: { chain?: boolean } = {}): Promise<Record<string, string>> {
  return headers(bearer(await s2sToken(ctx, i)), opts.chain === false ? {} : chainHeader(ctx));
}

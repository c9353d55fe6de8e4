// S2S tokens (section 5): the token request of a profile client, and a token cache per target and
// client refreshed the section 8 buffer before expiry (src/client/token-source.ts).

import { checkStep, expectStep } from '../../src/checks/assert.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import { TokenSource, tokenRequest, type IssuedToken } from '../../src/client/index.ts';
import { mintToken } from '../../src/client/mint.ts';
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
  return tokenRequest(ctx.model, profileClient(ctx, i)).body;
}

export function requestToken(ctx: CheckContext, body: unknown, opts: { noRetry?: boolean } = {}): Promise<HttpResponse> {
  return ctx.http.send({ op: 'createToken', body, noRetry: opts.noRetry });
}

/** One TokenSource per target and client: checks share a client's token, refreshed the section 8 buffer before expiry. */
const sources = new Map<string, TokenSource<{ ctx: CheckContext; i: number }>>();

// The request and the reading of the answer are client/mint.ts's (load setup and the control token
// read it the same way); a refusal or an answer without a token is this check's failed step.
async function mintFor({ ctx, i }: { ctx: CheckContext; i: number }): Promise<IssuedToken> {
  const step = `${opLabel(ctx, 'createToken')} for profile.clients[${i}]`;
  const { issued, res } = await mintToken(ctx.http, ctx.model, profileClient(ctx, i));
  expectStep(res, 'createToken', step);
  checkStep(issued, 'createToken', `${step}: the answer carries no access_token`, res);
  return issued;
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

// S2S tokens (section 5): the token request of a profile client, and a token cache per target and
// client refreshed 5 minutes before expiry (the section 8 buffer, read from the model).

import { checkStep, expectStep } from '../../src/checks/assert.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
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

const tokenCache = new Map<string, Promise<{ token: string; exp: number }>>();

/** S2S token for client i, cached per target and client, refreshed 5 minutes before expiry. */
export async function s2sToken(ctx: CheckContext, i = 0): Promise<string> {
  const c = profileClient(ctx, i);
  const key = `${ctx.profile.base_url}|${c.client_id}|${c.client_secret}`;
  const buffer = ctx.model.refreshBufferSeconds();
  const cached = tokenCache.get(key);
  if (cached) {
    try {
      const got = await cached;
      // The target's clock may have been moved forward (control API): its notion of expiry is ahead of ours.
      if (got.exp - buffer - clockSkewAllowance(ctx) > Date.now() / 1000) return got.token;
    } catch {
      // fall through and fetch again
    }
  }
  const p = (async () => {
    const step = `${opLabel(ctx, 'createToken')} for profile.clients[${i}]`;
    const res = await requestToken(ctx, tokenBody(ctx, i));
    expectStep(res, 'createToken', step);
    const token = res.json?.access_token;
    checkStep(typeof token === 'string' && token.length > 0, 'createToken', `${step}: the answer carries no access_token`, res);
    const exp = typeof res.json?.expires_at === 'number' ? res.json.expires_at : Date.now() / 1000 + 600;
    return { token, exp };
  })();
  tokenCache.set(key, p);
  p.catch(() => tokenCache.delete(key));
  return (await p).token;
}

export async function s2sHeaders(ctx: CheckContext, i = 0, opts: { chain?: boolean } = {}): Promise<Record<string, string>> {
  return headers(bearer(await s2sToken(ctx, i)), opts.chain === false ? {} : chainHeader(ctx));
}

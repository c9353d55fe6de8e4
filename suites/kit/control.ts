// Every call the checks make to the target's test-control API (spec/control.yaml): the server clock,
// 3DS challenges, withdrawal requests, SEPA status, the Primary wallet and the test wallet's
// signature. This module is the one place a check reaches the control API, so a control adapter
// (a sandbox without the reference control API) is wired here.

import { is2xx } from '../../src/checks/assert.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { TestUser } from './users.ts';

const clockAdvanced = new Map<string, number>();
/** Per target instance (a later target may reuse a base_url on a freed port). */
const clockKey = (ctx: CheckContext) => `${ctx.profile.base_url}|${ctx.profile.clients[0]?.client_id}`;

/** One control-API call; skips when the profile has no control_url, throws (a run error, not a verdict) on a refusal. */
export async function control(ctx: CheckContext, method: string, path: string, body?: unknown): Promise<HttpResponse> {
  if (!ctx.profile.control_url) ctx.skip('needs the test-control API: profile.control_url is not set');
  const res = await ctx.http.send({ server: 'control', method, path, body: body ?? (method === 'GET' ? undefined : {}) });
  if (!is2xx(res)) throw new Error(`test-control ${method} ${path} failed with HTTP ${res.status}: ${res.text.slice(0, 300)}`);
  return res;
}

export function userPath(user: TestUser, rest: string): string {
  return `/users/${encodeURIComponent(user.id)}${rest}`;
}

/** Moves the target's clock forward (control POST /clock/advance); remembers the total per target. */
export async function advanceClock(ctx: CheckContext, seconds: number): Promise<void> {
  await control(ctx, 'POST', '/clock/advance', { seconds });
  const key = clockKey(ctx);
  clockAdvanced.set(key, (clockAdvanced.get(key) ?? 0) + seconds);
}

/** Seconds this process moved the target's clock forward (tolerance for "now" comparisons). */
export function clockSkewAllowance(ctx: CheckContext): number {
  return clockAdvanced.get(clockKey(ctx)) ?? 0;
}

export async function create3ds(ctx: CheckContext, user: TestUser): Promise<{ transaction_id: string; expires_at?: number }> {
  const res = await control(ctx, 'POST', userPath(user, '/3ds'), { amount: 12.5, currency: 'EUR' });
  const id = res.json?.transaction_id;
  if (typeof id !== 'string') throw new Error(`test-control POST /users/{id}/3ds answered no transaction_id: ${res.text.slice(0, 200)}`);
  return res.json;
}

export async function createWithdrawal(ctx: CheckContext, user: TestUser, destination: string): Promise<any> {
  return (await control(ctx, 'POST', userPath(user, '/withdrawal-requests'), { destination_address: destination })).json;
}

export async function setSepaStatus(ctx: CheckContext, user: TestUser, status: string): Promise<void> {
  await control(ctx, 'PUT', userPath(user, '/capabilities/SepaAccount'), { status });
}

export async function setPrimaryWallet(ctx: CheckContext, user: TestUser, present: boolean): Promise<void> {
  await control(ctx, 'PUT', userPath(user, '/primary-wallet'), { present });
}

/**
 * The Primary Smart Wallet's signature of `challenge`, from the test wallet of the target's control
 * API (POST /users/{user_id}/sign; the spec does not show the signature scheme and the wallet keys
 * live with the target). Undefined when the control API has no sign endpoint (404/405/501).
 */
export async function signChallenge(ctx: CheckContext, user: TestUser, challenge: string): Promise<string | undefined> {
  if (!ctx.profile.control_url) ctx.skip('needs the test-control API: profile.control_url is not set');
  const path = userPath(user, '/sign');
  const res = await ctx.http.send({ server: 'control', method: 'POST', path, body: { challenge } });
  if ([404, 405, 501].includes(res.status)) {
    ctx.log(`test-control POST ${path} answered HTTP ${res.status}: the control API has no sign endpoint`);
    return undefined;
  }
  if (!is2xx(res)) throw new Error(`test-control POST ${path} failed with HTTP ${res.status}: ${res.text.slice(0, 300)}`);
  const signed = res.json?.signed_challenge;
  if (typeof signed !== 'string') throw new Error(`test-control POST ${path} answered no signed_challenge: ${res.text.slice(0, 200)}`);
  return signed;
}

export const NO_SIGNER = 'the test-control API has no POST /users/{user_id}/sign (spec/control.yaml), so the challenge cannot be signed as the Primary Smart Wallet and complete cannot succeed';

/** The signature, or a skip with NO_SIGNER when the control API cannot sign. */
export async function requireSigned(ctx: CheckContext, user: TestUser, challenge: string): Promise<string> {
  const s = await signChallenge(ctx, user, challenge);
  if (s === undefined) ctx.skip(NO_SIGNER);
  return s;
}

// Identity-provider helpers: a retail user registered through the provider tokens of the engine's
// test identity provider (ctx.services.idp), and the header sets of the provider form.

import { field } from '../../src/checks/body.ts';
import type { CheckContext, HttpResponse, IdpTokenOptions, TestIdentityProvider } from '../../src/checks/types.ts';
import { CheckFailure, checkStep, expectError, expectErrorShape, expectStep } from '../../src/checks/assert.ts';
import { decodeJwt } from 'jose';
import { IDP_DEFAULTS } from '../../src/idp/index.ts';
import { clockSkewAllowance } from './control.ts';
import { warnReading } from './readings.ts';
import { bearer, chainHeader, headers, opLabel } from './http.ts';
import { rnd } from './random.ts';
import { userIdFrom } from './users.ts';
import type { RuleId } from '../../src/model/types.ts';

/** A provider user: sub, and the email, smart wallet and EOA (when linked) its identity token links. */
export interface ProviderIdentity {
  sub: string;
  email: string;
  /** The linked smart_wallet. */
  wallet: string;
  /** The linked EOA (entry of type wallet); '' when the supplied tokens link none. */
  eoa: string;
}

export interface IdpUser extends ProviderIdentity {
  id: string;
  /** The POST /api/v1/user/retail answer, when this run registered the user (ENDPOINT-RETAIL-REGISTER reads it). */
  registration?: HttpResponse;
}

export function idp(ctx: CheckContext): TestIdentityProvider {
  const p = ctx.services.idp;
  if (!p) ctx.skip('the test identity provider is not available');
  return p;
}

export interface IdpHeaderOptions {
  access?: IdpTokenOptions;
  identity?: IdpTokenOptions;
  omitAuthorization?: boolean;
  omitIdentity?: boolean;
}

/** Real provider tokens from the profile, used when the engine's own provider is not trusted by the target. */
function supplied(ctx: CheckContext): { access_token: string; identity_token: string } | undefined {
  return ctx.services.idp ? undefined : ctx.profile.idp?.tokens;
}

/** The provider identity: a fresh one for the engine's provider, or the one the supplied tokens carry. */
export function providerIdentity(ctx: CheckContext): ProviderIdentity {
  const t = supplied(ctx);
  if (!t) return newIdpIdentity();
  const access = decodeJwt(t.access_token);
  const linked = (decodeJwt(t.identity_token).linked_accounts ?? []) as { type?: string; address?: string }[];
  const find = (re: RegExp) => String(linked.find((a) => re.test(String(a?.type)))?.address ?? '');
  return { sub: String(access.sub ?? ''), email: find(/email/i), wallet: find(/^smart_wallet$/i) || find(/wallet/i), eoa: find(/^wallet$/i) };
}

/** Authorization + Identity + X-Chain-Id for the provider identity (sub, email, wallet), one thing varied. */
export async function idpHeaders(ctx: CheckContext, who: ProviderIdentity, o: IdpHeaderOptions = {}): Promise<Record<string, string>> {
  const t = supplied(ctx);
  if (t) {
    // Real tokens can only be sent as they are or left out; varied tokens need the engine's key trusted.
    if (o.access || o.identity) ctx.skip('this variant forges provider tokens: it needs the target to trust the engine\'s provider key (profile.idp.app_id + signing_key + jwks_url, or a control adapter mapping setIdpConfig)');
    return headers(o.omitAuthorization ? {} : bearer(t.access_token), o.omitIdentity ? {} : { Identity: `Bearer ${t.identity_token}` }, chainHeader(ctx));
  }
  const p = idp(ctx);
  const access = await p.accessToken(onTargetClock(ctx, { sub: who.sub, ...o.access }));
  const identity = await p.identityToken(onTargetClock(ctx, { sub: who.sub, email: who.email, wallet: who.wallet, ...(who.eoa ? { eoa: who.eoa } : {}), ...o.identity }));
  return headers(
    o.omitAuthorization ? {} : bearer(access),
    o.omitIdentity ? {} : { Identity: `Bearer ${identity}` },
    chainHeader(ctx),
  );
}

/**
 * Token lifetimes are seconds from now by our clock; a target whose clock this process moved forward
 * (control advanceClock, e.g. limits.s2s.token-lifetime moves it 48 h) would see them as expired. The
 * shift keeps "valid for an hour" and "expired an hour ago" true on the target's clock.
 */
function onTargetClock(ctx: CheckContext, o: IdpTokenOptions): IdpTokenOptions {
  const skew = clockSkewAllowance(ctx);
  return skew > 0 ? { ...o, expiresIn: (o.expiresIn ?? IDP_DEFAULTS.expiresIn) + skew } : o;
}

export function newIdpIdentity(): ProviderIdentity {
  return { sub: `conform-${rnd.hex(8)}`, email: rnd.email(), wallet: rnd.address(), eoa: rnd.address() };
}

/** POST /api/v1/user/retail for a fresh provider identity; returns it with the new user id. */
export async function registerRetail(ctx: CheckContext, who = newIdpIdentity(), country = 'DE'): Promise<IdpUser> {
  const res = await ctx.http.send({ op: 'registerRetailUser', headers: await idpHeaders(ctx, who), body: { country } });
  expectStep(res, 'registerRetailUser', `${opLabel(ctx, 'registerRetailUser')} with valid provider tokens`);
  const id = userIdFrom(ctx, res.json);
  checkStep(id, 'registerRetailUser', `${opLabel(ctx, 'registerRetailUser')} answered without id: ${res.text.slice(0, 200)}`, res);
  return { ...who, id, registration: res };
}

/**
 * The retail user of the supplied real provider tokens: registered now, or (a fixed identity is
 * registered by an earlier run; the answer to a repeated registration is not shown) found through the
 * exchange. `registered` says whether this run observed the registration itself.
 */
export async function suppliedRetailUser(ctx: CheckContext): Promise<{ user: IdpUser; registered: boolean }> {
  const who = providerIdentity(ctx);
  const res = await ctx.http.send({ op: 'registerRetailUser', headers: await idpHeaders(ctx, who), body: { country: 'DE' } });
  const id = res.status >= 200 && res.status < 300 ? userIdFrom(ctx, res.json) : undefined;
  if (id) return { user: { ...who, id, registration: res }, registered: true };
  ctx.log(`${opLabel(ctx, 'registerRetailUser')} with the supplied provider tokens answered HTTP ${res.status}; looking the user up through the exchange`);
  const auth = await ctx.http.send({ op: 'authorizeUser', headers: await idpHeaders(ctx, who) });
  expectStep(auth, 'authorizeUser', `${opLabel(ctx, 'authorizeUser')} with the supplied provider tokens (profile.idp.tokens)`);
  const me = await ctx.http.send({ op: 'getUserV1', headers: headers(bearer(String(field(auth.json, 'access_token'))), chainHeader(ctx)) });
  expectStep(me, 'getUserV1', `${opLabel(ctx, 'getUserV1')} with the exchanged user token`);
  const found = userIdFrom(ctx, me.json);
  checkStep(found, 'getUserV1', `${opLabel(ctx, 'getUserV1')} answered without a user id: ${me.text.slice(0, 200)}`, me);
  return { user: { ...who, id: found }, registered: false };
}

const registered = new Map<string, Promise<IdpUser>>();

/** One registered retail user per target, reused by the provider-exchange error checks. */
export function sharedIdpUser(ctx: CheckContext): Promise<IdpUser> {
  // Keyed by target and client too: a later target may reuse a base_url (a freed port) with other state.
  const key = `${ctx.profile.base_url}|${ctx.profile.clients[0]?.client_id}|${supplied(ctx) ? 'supplied-tokens' : idp(ctx).appId}`;
  let p = registered.get(key);
  if (!p) {
    p = supplied(ctx) ? suppliedRetailUser(ctx).then((r) => r.user) : registerRetail(ctx);
    registered.set(key, p);
    p.catch(() => registered.delete(key));
  }
  return p;
}

export async function idpAuthorize(ctx: CheckContext, who: ProviderIdentity, o: IdpHeaderOptions = {}) {
  return ctx.http.send({ op: 'authorizeUser', headers: await idpHeaders(ctx, who, o) });
}

/**
 * The refusal of a provider access token whose aud is not the company's application id. Section 5:
 * "The company must have the provider application ID configured. The access token's aud must match it."
 * Section 7 has no row for a mismatching aud: the 500 row ERR-IDP-APP-NOT-REGISTERED ("provider app ID
 * not configured") is one reading (the aud names no registered application), a 401 refusal with the
 * section 7 body is the other (the token is not valid for this company). Both pass; anything else fails.
 */
export function expectAudienceRefused(ctx: CheckContext, res: HttpResponse, rules: RuleId[]): void {
  // Accepted: the caller's rule (the aud must match). Refused with a wrong answer: only the 500 row's.
  if (res.status >= 200 && res.status < 300) throw new CheckFailure(`an access token whose aud is not the configured app id was accepted (HTTP ${res.status}); section 5: "The access token's aud must match it"`, { rules, response: res });
  if (res.status === 401) {
    expectErrorShape(ctx, res, rules);
    warnReading(ctx, 'ERR-IDP-APP-NOT-REGISTERED', 'refused-401', `a provider access token whose aud is not the configured app id answered 401 ${String((res.json as { error_reason?: unknown })?.error_reason ?? '')}`.trimEnd());
    return;
  }
  expectError(ctx, res, 'ERR-IDP-APP-NOT-REGISTERED');
}

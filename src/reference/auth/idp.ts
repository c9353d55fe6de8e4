// Identity-provider exchange (section 5): provider tokens checked against the provider's JWKS. The
// provider app (aud -> company, JWKS URL) is registered through the test-control API (PUT /idp).

import { createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { ErrorRuleId } from '../../model/types.ts';
import type { Caller, Ctx } from '../http.ts';
import { header } from '../http.ts';
import type { RefState } from '../state/index.ts';
import type { User } from '../state/store.ts';
import { requireChain } from './identity.ts';
import { BEARER_RE } from './jwt.ts';

function jwksFor(st: RefState, url: string): ReturnType<typeof createRemoteJWKSet> {
  let j = st.jwks.get(url);
  if (!j) {
    j = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 0 });
    st.jwks.set(url, j);
  }
  return j;
}

async function verifyProviderToken(st: RefState, token: string, jwks: ReturnType<typeof createRemoteJWKSet>, signatureRow: ErrorRuleId, expiredRow: ErrorRuleId, ignoreExpiry = false): Promise<JWTPayload> {
  try {
    // ignoreExpiry (fault idp.retail-id-expiry-ignored): a year of clock tolerance accepts any recent expired token.
    const { payload } = await jwtVerify(token, jwks, { currentDate: new Date(st.clock.nowMs()), ...(ignoreExpiry ? { clockTolerance: 365 * 86400 } : {}) });
    return payload;
  } catch (e) {
    // jwtVerify checks the signature before the claims: an expired token with a good signature is JWTExpired.
    if (e instanceof joseErrors.JWTExpired) throw st.errors.rule(expiredRow);
    throw st.errors.rule(signatureRow);
  }
}

/**
 * The caller a pair of provider tokens identifies. Row order: Authorization, Identity, app (by the access
 * token's aud; it comes before any signature because the JWKS to verify against is the app's), access
 * signature, access expiry, id signature, id expiry, linked_accounts, identifiers; then X-Chain-Id.
 */
export async function idpCaller(ctx: Ctx, st: RefState): Promise<Caller> {
  const E = st.errors;
  const auth = header(ctx, 'authorization');
  if (auth === undefined) throw E.rule('ERR-IDP-AUTH-HEADER-MISSING');
  const ident = header(ctx, 'identity');
  if (ident === undefined) throw E.rule('ERR-IDP-IDENTITY-HEADER-MISSING');
  const am = BEARER_RE.exec(auth);
  const im = BEARER_RE.exec(ident);
  if (!am || !im) throw E.rule('ERR-S2S-BEARER-FORMAT', [am ? 'Identity' : 'Authorization']);
  let aud: unknown;
  try {
    aud = decodeJwt(am[1]).aud;
  } catch {
    throw E.rule('ERR-IDP-ACCESS-TOKEN-SIGNATURE');
  }
  const auds = Array.isArray(aud) ? aud : [aud];
  const app = auds.map((a) => (typeof a === 'string' ? st.store.idpApps.get(a) : undefined)).find((a) => a !== undefined);
  if (!app) {
    // Switch idp.unknown-aud-401 (not a fault): an aud this server never knew is a token not meant for
    // it (401); an application it knows but no company has configured is the section 7 500 row.
    const known = auds.some((a) => typeof a === 'string' && st.store.clearedIdpApps.has(a));
    if (st.fault('idp.unknown-aud-401') && !known) throw E.rule('ERR-IDP-ACCESS-TOKEN-SIGNATURE');
    throw E.rule('ERR-IDP-APP-NOT-REGISTERED');
  }
  const jwks = jwksFor(st, app.jwks_url);
  const access = await verifyProviderToken(st, am[1], jwks, 'ERR-IDP-ACCESS-TOKEN-SIGNATURE', 'ERR-IDP-ACCESS-TOKEN-EXPIRED');
  const retailLax = st.fault('idp.retail-id-expiry-ignored') && ctx.route.operationId === 'registerRetailUser';
  const id = await verifyProviderToken(st, im[1], jwks, 'ERR-IDP-ID-TOKEN-SIGNATURE', 'ERR-IDP-ID-TOKEN-EXPIRED', retailLax);
  const linked = id.linked_accounts;
  if (!Array.isArray(linked)) throw E.rule('ERR-IDP-LINKED-ACCOUNTS-MISSING');
  const entry = (type: string) =>
    linked.find((a: unknown): a is { address: string } => !!a && typeof a === 'object' && 'type' in a && a.type === type && 'address' in a && typeof a.address === 'string' && a.address !== '');
  const email = entry('email');
  // Section 5 names smart_wallet as an example linked type; section 2 makes user_address the EOA. The
  // reference takes the smart_wallet; the switch idp.user-address-eoa takes the linked EOA (type wallet).
  const wallet = entry(st.fault('idp.user-address-eoa') ? 'wallet' : 'smart_wallet');
  // Fault idp.retail-email-optional: retail registration lets an identity without a linked email through.
  const emailOptional = st.fault('idp.retail-email-optional') && ctx.route.operationId === 'registerRetailUser';
  if ((!email && !emailOptional) || !wallet) throw E.rule('ERR-IDP-IDENTIFIERS-INCOMPLETE');
  requireChain(ctx, st, 'idp');
  return {
    kind: 'idp',
    company_id: app.company_id,
    idp: { sub: typeof access.sub === 'string' ? access.sub : '', email: email?.address ?? '', wallet: wallet.address, app_id: app.app_id },
  };
}

/** The user a provider identity maps to in its company: by wallet (user_address), then by email. */
export function idpUser(st: RefState, caller: Caller): User | undefined {
  if (!caller.idp) return undefined;
  const c = st.store.companies.get(caller.company_id);
  return c?.usersByAddress.get(caller.idp.wallet.toLowerCase()) ?? c?.usersByEmail.get(caller.idp.email.toLowerCase());
}

/** Identity-provider form when an Identity header is sent or the bearer token is not HS256. */
export function isIdpForm(ctx: Ctx, decodeAlg: (token: string) => unknown): boolean {
  if (header(ctx, 'identity') !== undefined) return true;
  const m = BEARER_RE.exec(header(ctx, 'authorization') ?? '');
  if (!m) return false;
  const alg = decodeAlg(m[1]);
  return alg !== undefined && alg !== 'HS256';
}

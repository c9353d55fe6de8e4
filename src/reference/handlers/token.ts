// POST /api/v1/token (section 5, section 7 token table) and POST /api/v1/user/authorize.

import { idpUser, issueS2sToken, issueUserToken } from '../auth/index.ts';
import type { Ctx, Reply } from '../http.ts';
import type { RefState } from '../state/index.ts';
import { ok } from './common.ts';

const missing = (v: unknown) => v === undefined || v === null || v === '';

/**
 * The audience the reference documents for token requests (profile.request_templates.createToken):
 * section 4 says the client library sends an optional audience string and shows no value. The
 * reference accepts any; with the switch token.audience-validated only this one (a vendor that
 * validates the audience it documents).
 */
export const REFERENCE_TOKEN_AUDIENCE = 'urn:baas-conform:reference-api';

/** Token table rows in the reference's order: client_id, client_secret, grant_type, client, secret, company type. */
export function createToken(ctx: Ctx, st: RefState): Reply {
  const E = st.errors;
  const b = ctx.body;
  if (typeof b.client_id === 'string' && b.client_id !== '') rateLimit(st, 'client', b.client_id);
  if (missing(b.client_id)) throw E.rule('ERR-TOKEN-CLIENT-ID-MISSING');
  if (missing(b.client_secret)) throw E.rule('ERR-TOKEN-CLIENT-SECRET-MISSING');
  if (typeof b.client_id !== 'string') throw E.invalid('client_id');
  if (typeof b.client_secret !== 'string') throw E.invalid('client_secret');
  // Section 4: the client library also sends an optional audience string; the fault refuses it.
  if (b.audience !== undefined && st.fault('token.refuse-audience')) throw E.invalid('audience');
  if (b.audience !== undefined && b.audience !== REFERENCE_TOKEN_AUDIENCE && st.fault('token.audience-validated')) throw E.invalid('audience');
  const grantOk = b.grant_type === st.model.grantType() || st.fault('token.accept-any-grant-type');
  const wrongOrder = st.fault('token.wrong-error-order');
  if (!grantOk && !wrongOrder) throw E.rule('ERR-TOKEN-GRANT-TYPE-INVALID');
  const client = st.store.clients.get(b.client_id);
  if (!client) throw E.rule('ERR-TOKEN-UNKNOWN-CLIENT');
  if (client.secret === null) throw E.rule('ERR-TOKEN-NO-SECRET-CONFIGURED');
  if (client.secret !== b.client_secret) throw E.rule('ERR-TOKEN-WRONG-SECRET');
  if (!grantOk) throw E.rule('ERR-TOKEN-GRANT-TYPE-INVALID');
  if (st.store.companies.get(client.company_id)?.type === 'Restricted') throw E.rule('ERR-TOKEN-COMPANY-TYPE');
  return ok(issueS2sToken(st, client));
}

/** Throws the 429 row when `key` (an IP or a client_id) is over its window (section 8). */
export function rateLimit(st: RefState, kind: 'ip' | 'client', key: string): void {
  if (st.fault('ratelimit.disabled')) return;
  if (kind === 'client' && st.fault('ratelimit.per-ip-only')) return;
  if (kind === 'ip' && st.fault('ratelimit.per-client-only')) return;
  const retry = st.rateLimit.hit(kind, key);
  if (retry > 0) throw st.errors.rule('ERR-RATE-LIMITED', [], st.fault('ratelimit.no-retry-after') ? undefined : { 'retry-after': String(retry) });
}

export function authorize(ctx: Ctx, st: RefState): Reply {
  const u = ctx.caller!.kind === 'idp' ? idpUser(st, ctx.caller!) : ctx.user;
  if (!u) throw st.errors.rule('ERR-S2S-USER-NOT-FOUND');
  return ok(issueUserToken(st, u));
}

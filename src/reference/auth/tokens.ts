// Token issuance (section 5): S2S tokens from POST /api/v1/token and user-scoped tokens from
// POST /api/v1/user/authorize. Algorithm, scope, token type and validity come from the model.

import type { Client, User } from '../state/store.ts';
import type { RefState } from '../state/index.ts';
import { signHs256 } from './jwt.ts';

/** Validity of user tokens: the spec does not show it (section 5); the reference picks 1 hour. */
export const USER_TOKEN_VALIDITY_SECONDS = 3600;

export function issueS2sToken(st: RefState, client: Client): { access_token: string; token_type?: string; expires_at: number } {
  const facts = st.model.auth.s2s_token;
  const iat = st.clock.nowSec();
  const exp = iat + (st.fault('token.wrong-validity') ? 3600 : st.s2sValiditySeconds);
  const access_token = signHs256(
    { iss: st.issuer, sub: client.client_id, azp: client.client_id, company_id: client.company_id, scope: facts.scope, iat, exp },
    st.secrets.s2sKey,
  );
  return st.fault('token.missing-token-type') ? { access_token, expires_at: exp } : { access_token, token_type: facts.token_type, expires_at: exp };
}

/** User token: HS256 under the user-token secret (that secret, not a claim, tells the two kinds apart). */
export function issueUserToken(st: RefState, u: User): { access_token: string; token_type?: string; expires_at: number } {
  const iat = st.clock.nowSec();
  const exp = iat + USER_TOKEN_VALIDITY_SECONDS;
  const access_token = signHs256(
    { user_id: u.user_id, email: u.email, user_address: u.user_address, company_id: u.company_id, iat, exp },
    st.secrets.userKey,
  );
  const expires_at = st.fault('user-token.expires-ms') ? exp * 1000 : exp;
  return st.fault('user-token.token-type') ? { access_token, token_type: st.model.auth.s2s_token.token_type, expires_at } : { access_token, expires_at };
}

// Credentials of the operations whose authentication the spec does not show (spec/openapi.yaml
// x-auth-unspecified; the card-tokenization environment first). The profile says (operation_auth);
// this module turns that into headers for every sender (checks, load, replay) and tells a refusal of
// the credentials from any other answer. It mints nothing: each caller hands in its own token source
// (suites/kit/tokens.ts s2sToken, the load journey's cached token, replay's token), so there is one
// minting path per subsystem, as before.

import type { ErrorRule, Model, OperationId } from '../model/types.ts';
import { DEFAULT_OPERATION_AUTH, type OperationAuth, type ResolvedProfile } from '../profile/index.ts';

/** The profile's answer for `op`; undefined when the spec shows how `op` authenticates (section 5 applies). */
export function operationAuthOf(model: Pick<Model, 'operations'>, profile: Pick<ResolvedProfile, 'operation_auth'>, op: OperationId): OperationAuth | undefined {
  if (!model.operations.get(op)?.authUnspecified) return undefined;
  return profile.operation_auth?.[op] ?? DEFAULT_OPERATION_AUTH;
}

/** Where the caller's tokens come from: its own minting path (no second one here). */
export interface OperationAuthTokens {
  /** S2S token of profile.clients[client]. */
  s2s(client: number): Promise<string>;
  /** A user-scoped token (section 5 user token issuance) of a user the caller has or creates. */
  user(): Promise<string>;
}

/** The headers `auth` sends (lower-case names for the modes the engine builds; `headers` mode as given). */
export async function operationAuthHeaders(model: Pick<Model, 'auth'>, profile: Pick<ResolvedProfile, 'chain_id'>, auth: OperationAuth, tokens: OperationAuthTokens): Promise<Record<string, string>> {
  switch (auth.mode) {
    case 'none':
      return {};
    case 's2s':
      return { authorization: `Bearer ${await tokens.s2s(auth.client ?? 0)}` };
    case 'user':
      // Section 5: "The client calls with Authorization: Bearer <USER_TOKEN> and X-Chain-Id".
      return { authorization: `Bearer ${await tokens.user()}`, [model.auth.chain_header.toLowerCase()]: profile.chain_id };
    case 'headers':
      return { ...(auth.headers ?? {}) };
  }
}

/** Section 7 tables whose rows are about the section 5 credentials and headers of a request. */
const CREDENTIAL_TABLES = new Set(['s2s', 'idp', 'user_token']);

/**
 * Whether an answer refuses the call for its credentials: HTTP 401 or 403 whatever the body (a
 * framework's own refusal included), or a 400 carrying the reason and message of a section 7 row of a
 * credentials table (e.g. ErrorMissingField "Missing Authorization Headers"). Rows are read from the model.
 */
export function refusesCredentials(model: Pick<Model, 'rules'>, res: { status: number; json?: unknown }): boolean {
  if (res.status === 401 || res.status === 403) return true;
  return res.status === 400 && credentialRow(model, res) !== undefined;
}

/** The section 7 row of a credentials table the answer is (same status, reason and message), if any. */
export function credentialRow(model: Pick<Model, 'rules'>, res: { status: number; json?: unknown }): ErrorRule | undefined {
  if (res.json === null || typeof res.json !== 'object') return undefined;
  const { error_reason: reason, error_description: message } = res.json as Record<string, unknown>;
  return model.rules.find((r): r is ErrorRule => r.kind === 'error' && CREDENTIAL_TABLES.has(r.table) && r.message !== null && r.status === res.status && r.reason === reason && r.message === message);
}

/** The section 7 words of a refusal, for messages: `HTTP 400 ErrorMissingField "Missing Authorization Headers"`. */
export function refusalText(res: { status: number; json?: unknown }): string {
  const b = (res.json ?? {}) as Record<string, unknown>;
  const words = [typeof b.error_reason === 'string' ? b.error_reason : undefined, typeof b.error_description === 'string' ? JSON.stringify(b.error_description) : undefined].filter(Boolean);
  return `HTTP ${res.status}${words.length ? ` ${words.join(' ')}` : ''}`;
}

/**
 * Why a refused call of an x-auth-unspecified operation judges nothing, and what to set: the words every
 * subsystem uses, naming profile.operation_auth.<op>.
 */
export function credentialsHint(op: OperationId, auth: OperationAuth, given: boolean): string {
  const key = `profile.operation_auth.${op}`;
  return given
    ? `sent as ${key} says (mode ${auth.mode}) and refused for its credentials: the spec does not show how ${op} authenticates, so nothing is judged; check ${key}`
    : `sent without credentials (${key} is not set) and refused for them: the spec does not show how ${op} authenticates, so nothing is judged; set ${key} (mode s2s, user or headers)`;
}

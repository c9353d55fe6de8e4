// The token and user requests every caller outside the checks needs (run preflight, load setup, the
// reference's testkit, bench): built from the model, sent by the caller's own transport. One place
// knows the token operation, its grant type, the user-creation body and the identity headers.
// (Checks have their kit in suites/kit, which records exchanges through the check client.)

import type { Model } from '../model/types.ts';

export interface OperationCall {
  method: string;
  path: string;
  body: Record<string, string>;
}

/** POST /api/v1/token for `client` (path and method from the model). */
export function tokenRequest(model: Pick<Model, 'operation' | 'grantType'>, client: { client_id: string; client_secret: string }): OperationCall {
  const op = model.operation('createToken');
  return { method: op.method, path: op.path, body: { client_id: client.client_id, client_secret: client.client_secret, grant_type: model.grantType() } };
}

/** User registration (v2 by default; v1 also needs X-Chain-Id): the address under its preferred name. */
export function createUserRequest(model: Model, user: { email: string; country: string; address: string }, version: 'v1' | 'v2' = 'v2'): OperationCall {
  const op = model.operation(version === 'v1' ? 'createUserV1' : 'createUserV2');
  const field = model.aliasRule(version === 'v1' ? 'ALIAS-USER-CREATE-WALLET-ADDRESS-V1' : 'ALIAS-USER-CREATE-WALLET-ADDRESS-V2').new;
  return { method: op.method, path: op.path, body: { email: user.email, country: user.country, [field]: user.address } };
}

/**
 * The user id of a registration answer: the preferred or the deprecated name of the user-read alias
 * (section 2: `id` is a deprecated alias of user_id; the registration answer shows "user id" without a field name).
 */
export function userIdOf(model: Pick<Model, 'aliasRule'>, json: unknown): string | undefined {
  if (typeof json === 'string') return json;
  if (json && typeof json === 'object') {
    const o = json as Record<string, unknown>;
    const { new: preferred, old } = model.aliasRule('ALIAS-USER-READ-ID');
    for (const k of [preferred, old]) if (typeof o[k] === 'string') return o[k] as string;
  }
  return undefined;
}

/** Headers of an S2S user call identifying the user by id (header names from the model). */
export function s2sUserHeaders(model: Model, token: string, userId: string, chainId: string): Record<string, string> {
  const idHeader = model.auth.identity_headers.find((h) => /-id$/i.test(h)) ?? model.auth.identity_headers[0];
  return { authorization: `Bearer ${token}`, [idHeader.toLowerCase()]: userId, [model.auth.chain_header.toLowerCase()]: chainId };
}

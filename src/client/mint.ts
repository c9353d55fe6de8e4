// Minting an S2S token (section 5) through an HttpClient: the request from the model
// (credentials.ts), the answer read the one way every caller reads it. The caller decides what a
// refusal means (a check fails, load setup stops with a credentials error, an adapter names the client).

import type { Model } from '../model/types.ts';
import { tokenRequest } from './credentials.ts';
import type { IssuedToken } from './token-source.ts';
import type { HttpClient, HttpResponse } from './types.ts';

/** The token a 2xx token answer carries (access_token, and expires_at when present); undefined otherwise. */
export function issuedToken(res: Pick<HttpResponse, 'status' | 'json'>): IssuedToken | undefined {
  if (res.status < 200 || res.status >= 300 || !res.json || typeof res.json !== 'object') return undefined;
  const { access_token: token, expires_at: expiresAt } = res.json as Record<string, unknown>;
  if (typeof token !== 'string' || token.length === 0) return undefined;
  return { token, ...(typeof expiresAt === 'number' ? { expiresAt } : {}) };
}

export type Minted = { issued: IssuedToken; res: HttpResponse } | { issued: undefined; res: HttpResponse };

/** Sends the token request for `client` (429s waited out by the client) and reads the answer. */
export async function mintToken(http: HttpClient, model: Pick<Model, 'operation' | 'grantType'>, client: { client_id: string; client_secret: string }): Promise<Minted> {
  const res = await http.send({ op: 'createToken', body: tokenRequest(model, client).body });
  return { issued: issuedToken(res), res };
}

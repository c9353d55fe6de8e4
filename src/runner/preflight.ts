// Preflight: before any check, make sure the target answers and accepts profile.clients[0]. Without
// this, a typo in base_url would show up as a hundred identical check failures.

import { field } from '../checks/body.ts';
import { tokenRequest } from '../client/credentials.ts';
import { TransportError } from '../client/errors.ts';
import type { HttpSession } from '../client/index.ts';
import { CredentialsError, TargetUnreachableError } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';

const HINTS: Record<string, string> = {
  CONNECTION_REFUSED: 'connection refused: is the server running? check profile.base_url or --target',
  DNS: 'host name not found: check profile.base_url or --target',
  TIMEOUT: 'no answer in time: check profile.base_url or --target, or raise --timeout-budget',
  CONNECTION_RESET: 'the connection was reset: check the scheme (http/https) and port of profile.base_url',
  TLS: 'TLS handshake failed: check the scheme of profile.base_url and its certificate; a certificate signed by a private CA needs that CA as profile.ca_file',
  PROTOCOL: 'the answer is not HTTP: check the port of profile.base_url',
};

export interface PreflightResult {
  /** S2S token for clients[0], when the target issued one. */
  token?: string;
  /** Non-fatal oddities (e.g. the token endpoint answered 500); the checks will report them. */
  warning?: string;
}

export async function preflight(session: HttpSession): Promise<PreflightResult> {
  const { profile } = session;
  const client = profile.clients[0];
  const http = session.client('preflight');
  // The session's model when it has the token operation; else the project's spec (a session built
  // without a model, e.g. a library caller or a runner test's stand-in model).
  const model = session.model?.operations.has('createToken') ? session.model : await loadModel();
  const req = tokenRequest(model, client);
  let res;
  try {
    res = await http.send({ method: req.method, path: req.path, server: 'api', body: req.body });
  } catch (err) {
    if (err instanceof TransportError && err.code === 'RATE_LIMITED') {
      // Reachable, but refusing: say so rather than "cannot reach".
      throw new TargetUnreachableError(`${profile.base_url} is rate limiting the token endpoint: ${session.mask(err.message)}`);
    }
    if (err instanceof TransportError) {
      // A certificate problem says which one (unknown issuer, expired, wrong name): the hint alone cannot.
      const detail = err.code === 'TLS' ? ` (${session.mask(err.message)})` : '';
      throw new TargetUnreachableError(`cannot reach ${profile.base_url}: ${HINTS[err.code] ? `${HINTS[err.code]}${detail}` : session.mask(err.message)}`);
    }
    throw err;
  }
  if (res.status === 401) {
    throw new CredentialsError('the target rejected profile.clients[0]: check client_id/client_secret (or BAAS_CLIENT_ID/BAAS_CLIENT_SECRET)');
  }
  if (res.status === 404) {
    throw new TargetUnreachableError(`${req.method} ${profile.base_url}${req.path} returned 404: is profile.base_url the API root (without /api/v1)?`);
  }
  const token = field(res.json, 'access_token');
  if (res.status >= 200 && res.status < 300 && typeof token === 'string') return { token };
  return { warning: `${req.method} ${req.path} for profile.clients[0] answered ${res.status} without an access_token; checks will show why` };
}

// The doctor's probe of the operations whose authentication the spec does not show (x-auth-unspecified,
// card tokenization on {pci_url} first). It must change nothing on the target, and tokenizing even a
// test card creates a token: so it sends the operation once with an empty JSON body, which no target
// can act on, and reads only whether the answer refuses the credentials (src/client/operation-auth.ts).
// A refusal there would block every check whose setup tokenizes a card, so doctor counts them.

import type { HttpSession } from '../client/http.ts';
import { credentialsHint, operationAuthHeaders, operationAuthOf, refusalText, refusesCredentials, tokenRequest } from '../client/index.ts';
import { isTransportError } from '../client/errors.ts';
import { field } from '../checks/body.ts';
import type { Model, OperationId } from '../model/types.ts';

/** A probed operation the target refused for its credentials: what to set, and why. */
export interface RefusedAuth {
  op: OperationId;
  reason: string;
}

type Add = (what: string, status: 'ok' | 'missing' | 'problem', detail: string) => void;

/** Probes each x-auth-unspecified operation with a path the spec shows, on a server the profile sets. */
export async function probeOperationAuth(session: HttpSession, model: Model, token: string | undefined, add: Add): Promise<RefusedAuth[]> {
  const { profile } = session;
  const refused: RefusedAuth[] = [];
  for (const op of model.operations.values()) {
    if (!op.authUnspecified || op.pathUnspecified || (op.server === 'pci' && !profile.pci_url)) continue;
    const auth = operationAuthOf(model, profile, op.operationId)!;
    const what = `operation_auth.${op.operationId}`;
    const where = `${op.method} ${op.path} on ${op.server === 'pci' ? 'pci_url' : 'base_url'} (an empty body: nothing is created)`;
    // A user token needs a user, and doctor creates none.
    if (auth.mode === 'user') {
      add(what, 'ok', `not probed: mode user needs a user token, and doctor creates no user`);
      continue;
    }
    let headers: Record<string, string>;
    try {
      headers = await operationAuthHeaders(model, profile, auth, { s2s: (client) => s2s(session, model, client, token), user: () => Promise.reject(new Error('unreachable')) });
    } catch (err) {
      add(what, 'problem', `not probed: ${(err as Error).message}`);
      continue;
    }
    let res;
    try {
      res = await session.client('doctor').send({ op: op.operationId, server: op.server, headers, body: {}, noRetry: true });
    } catch (err) {
      if (!isTransportError(err)) throw err;
      add(what, 'problem', `${where} got no answer: ${err.code}: ${session.mask(err.message)}`);
      continue;
    }
    if (!refusesCredentials(model, res)) {
      add(what, 'ok', `${where} answered HTTP ${res.status}, not a refusal of the credentials${profile.operation_auth?.[op.operationId] ? ' (sent as the profile says)' : ' (sent without credentials)'}`);
      continue;
    }
    const reason = `${where} was refused for its credentials: ${refusalText(res)}; ${credentialsHint(op.operationId, auth, profile.operation_auth?.[op.operationId] !== undefined)}`;
    add(what, 'problem', reason);
    refused.push({ op: op.operationId, reason });
  }
  return refused;
}

/** An S2S token of profile.clients[client]: the preflight's for clients[0], else minted (as doctor does for clients[1]). */
async function s2s(session: HttpSession, model: Model, client: number, token: string | undefined): Promise<string> {
  if (client === 0 && token) return token;
  const c = session.profile.clients[client];
  if (!c) throw new Error(`profile.clients[${client}] is not set`);
  const req = tokenRequest(model, c);
  const res = await session.client('doctor').send({ method: req.method, path: req.path, body: req.body, noRetry: true });
  const t = field(res.json, 'access_token');
  if (typeof t !== 'string') throw new Error(`profile.clients[${client}] got no token (HTTP ${res.status})`);
  return t;
}

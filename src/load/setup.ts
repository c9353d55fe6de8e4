// Scenario setup through src/client, the HTTP stack the conformance checks use: one HttpSession per
// run (pools per origin, profile.ca_file trusted on the target's origins, bounded bodies, learned
// tokens masked), operations located from the model (client/operation-location.ts), 429s waited out by
// the client's retry loop (Retry-After honoured, bounded in count and waiting), tokens minted and read
// by client/mint.ts, the user id read through the model's alias (client/credentials.ts). Transport
// failures here mean the target cannot be used (exit 3); rejected credentials are a configuration
// error (exit 2).

import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { createUserRequest, tokenRequest, userIdOf } from '../client/credentials.ts';
import { HttpSession } from '../client/http.ts';
import { issuedToken } from '../client/mint.ts';
import { locateOperation, type OperationLocation } from '../client/operation-location.ts';
import type { RetryOptions } from '../client/retry.ts';
import type { IssuedToken } from '../client/token-source.ts';
import type { HttpRequest } from '../client/types.ts';
import { ConfigError, CredentialsError, TargetUnreachableError, TransportError } from '../errors/index.ts';
import type { Model, OperationId } from '../model/index.ts';
import type { ClientCredentials, ResolvedProfile } from '../profile/index.ts';

export interface SetupHttp {
  profile: ResolvedProfile;
  timeoutMs: number;
  model: Model;
  /** The run's HTTP session: setup, read-backs and probes send through it; its maxBodyBytes bounds their answers. */
  session: HttpSession;
  /** Trusts profile.ca_file (runLoad makes it): the load engine's own sends to the target's origins. */
  dispatcher?: Dispatcher;
}

/** Default bound of a setup or read-back answer's body (bytes). */
export const MAX_SETUP_BODY = 1024 * 1024;

/** A setup over a new session (close it with `s.session.close()`); `maxBodyBytes` bounds every answer (default MAX_SETUP_BODY). */
export function openSetup(o: Omit<SetupHttp, 'session'> & { maxBodyBytes?: number }): SetupHttp {
  const { maxBodyBytes, ...rest } = o;
  const session = new HttpSession({ profile: o.profile, model: o.model, timeoutBudgetMs: o.timeoutMs, maxBodyBytes: maxBodyBytes ?? MAX_SETUP_BODY });
  return { ...rest, session };
}

/** Method, path template and server of a documented operation (client/operation-location.ts). */
export function operation(s: Pick<SetupHttp, 'model' | 'profile'>, operationId: OperationId): OperationLocation {
  if (!s.model.operations.has(operationId)) throw new ConfigError(`load: the model has no operation ${operationId}`);
  const loc = locateOperation(s.model, s.profile, operationId);
  if (!loc) throw new ConfigError(`load: the spec does not show the path of ${operationId}; give it in profile.operations.${operationId}`);
  return loc;
}

export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body (undefined when it is not JSON): read through JsonFields. */
  json: JsonFields | undefined;
}

/** A JSON answer as setup reads it: fields of unknown type, each narrowed where it is used. */
export type JsonFields = Record<string, unknown>;

/** base_url path prefix + operation path (a target may sit under a path). */
export function targetPath(profile: ResolvedProfile, path: string): string {
  const prefix = new URL(profile.base_url).pathname.replace(/\/+$/, '');
  return `${prefix}${path}`;
}

/** What a setup request may set beyond the request: narrower 429 bounds. */
export interface SendOptions {
  retry?: Partial<Pick<RetryOptions, 'maxRetries' | 'maxWaitMs'>>;
}

/** One request through the session's client (429s waited out); a failure throws the client's TransportError. */
export async function exchange(s: SetupHttp, req: HttpRequest, opts: SendOptions = {}): Promise<HttpReply> {
  const res = await s.session.client('load-setup', opts.retry ? { retry: opts.retry } : {}).send(req);
  return { status: res.status, headers: res.headers, text: res.text, json: res.json as JsonFields | undefined };
}

/**
 * Sends the documented operation `operationId` (located from the model). A target that cannot be
 * reached, or rate limits past the client's bound, stops setup (TargetUnreachableError, exit 3).
 */
export async function sendOp(s: SetupHttp, operationId: OperationId, headers: Record<string, string> = {}, body?: unknown, opts: { noRetry?: boolean } = {}): Promise<HttpReply> {
  operation(s, operationId);
  try {
    return await exchange(s, { op: operationId, headers, ...(body === undefined ? {} : { body }), ...(opts.noRetry ? { noRetry: true } : {}) });
  } catch (err) {
    if (!(err instanceof TransportError)) throw err;
    throw new TargetUnreachableError(`load: ${operationId} during scenario setup: ${err.message}`);
  }
}

/** The token request body (one helper for every non-check caller: src/client/credentials.ts). */
export function tokenBody(c: ClientCredentials, model: Model): Record<string, string> {
  return tokenRequest(model, c).body;
}

/** S2S token for `client` (the client waits out 429s within its bounds). */
export async function s2sToken(s: SetupHttp, client: ClientCredentials | undefined): Promise<string> {
  return (await issueToken(s, client)).token;
}

export async function issueToken(s: SetupHttp, client: ClientCredentials | undefined): Promise<IssuedToken> {
  if (!client?.client_id || !client.client_secret) throw new CredentialsError('load: the profile has no clients[0] credentials (client_id, client_secret)');
  const r = await sendOp(s, 'createToken', {}, tokenBody(client, s.model));
  const issued = issuedToken(r);
  if (issued) return issued;
  if (r.status === 401 || r.status === 400) throw new CredentialsError(`load: the target rejected clients[0] at POST ${operation(s, 'createToken').path} (HTTP ${r.status} ${r.json?.error_reason ?? ''})`);
  throw new CredentialsError(`load: could not get an S2S token for clients[0] (HTTP ${r.status})`);
}

export function randomEvmAddress(): string {
  return `0x${randomBytes(20).toString('hex')}`;
}

/** Body of a user registration (createUserV2 / createUserV1): fresh email and EOA each time. */
export function newUserBody(model: Model): Record<string, string> {
  const tag = randomBytes(6).toString('hex');
  // The address goes under its preferred name (alias rules of the model).
  return createUserRequest(model, { email: `load-${tag}@example.com`, country: 'DE', address: randomEvmAddress() }).body;
}

/** Creates a user (createUserV2, user-agnostic) and returns its user id. */
export async function createUser(s: SetupHttp, token: string): Promise<string> {
  const r = await sendOp(s, 'createUserV2', { authorization: `Bearer ${token}` }, newUserBody(s.model));
  if (r.status !== 200 && r.status !== 201) throw new ConfigError(`load: setup could not create a user (createUserV2 ${operation(s, 'createUserV2').path}: HTTP ${r.status} ${r.json?.error_reason ?? ''})`);
  // The preferred or the deprecated name of the user-read alias, as the model names them.
  const id = userIdOf(s.model, r.json);
  if (typeof id !== 'string') {
    const { new: preferred, old } = s.model.aliasRule('ALIAS-USER-READ-ID');
    throw new ConfigError(`load: setup created a user but the answer carries no user id (${preferred} or ${old})`);
  }
  return id;
}

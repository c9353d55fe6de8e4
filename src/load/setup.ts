// Scenario setup over undici: an S2S token (with bounded 429 backoff, since a load run may follow
// another against the same target) and a user to read. Operation paths and request facts come from
// the model (spec/openapi.yaml), never from this file. Transport failures here mean the target is
// unreachable (exit 3); rejected credentials are a configuration error (exit 2).

import { randomBytes } from 'node:crypto';
import { request, type Dispatcher } from 'undici';
import { createUserRequest, tokenRequest, userIdOf } from '../client/credentials.ts';
import type { IssuedToken } from '../client/token-source.ts';
import { RETRY_DEFAULTS, backoffDelay } from '../client/retry.ts';
import { ConfigError, CredentialsError, TargetUnreachableError } from '../errors/index.ts';
import type { Model, OperationId } from '../model/index.ts';
import type { ClientCredentials, ResolvedProfile } from '../profile/index.ts';

export interface SetupHttp {
  profile: ResolvedProfile;
  timeoutMs: number;
  model: Model;
  /** Trusts profile.ca_file (runLoad makes it): used only for requests to the target's origins. */
  dispatcher?: Dispatcher;
  /** Most bytes of an answer's body setup and read-backs keep (default MAX_SETUP_BODY); past it the answer is `truncated`. */
  maxBodyBytes?: number;
}

/** Method and path of a documented operation, from the model (a profile may relocate unshown ones). */
export function operation(s: Pick<SetupHttp, 'model' | 'profile'>, operationId: OperationId): { method: string; path: string } {
  const op = s.model.operations.get(operationId);
  if (!op) throw new ConfigError(`load: the model has no operation ${operationId}`);
  const loc = s.profile.operations?.[operationId] as { path?: string; method?: string } | undefined;
  if (op.pathUnspecified && !loc?.path) throw new ConfigError(`load: the spec does not show the path of ${operationId}; give it in profile.operations.${operationId}`);
  return { method: (loc?.method ?? op.method).toUpperCase(), path: loc?.path ?? op.path };
}

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body (undefined when it is not JSON, or not read whole): read through JsonFields. */
  json: JsonFields | undefined;
  /** The body was longer than the bound and was not read whole: it says nothing about what the target holds. */
  truncated: boolean;
}

/** A JSON answer as setup reads it: fields of unknown type, each narrowed where it is used. */
export type JsonFields = Record<string, unknown>;

/** base_url path prefix + operation path (a target may sit under a path). */
export function targetPath(profile: ResolvedProfile, path: string): string {
  const prefix = new URL(profile.base_url).pathname.replace(/\/+$/, '');
  return `${prefix}${path}`;
}

/** Default bound of a setup or read-back answer's body (bytes). */
export const MAX_SETUP_BODY = 1024 * 1024;

/** Sends the documented operation `operationId` (path and method from the model). */
export function sendOp(s: SetupHttp, operationId: OperationId, headers: Record<string, string> = {}, body?: unknown): Promise<HttpReply> {
  const { method, path } = operation(s, operationId);
  return send(s, method, path, headers, body);
}

export async function send(s: SetupHttp, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<HttpReply> {
  const url = new URL(targetPath(s.profile, path), s.profile.base_url);
  let res;
  try {
    res = await request(url, {
      method: method as 'GET',
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: s.timeoutMs,
      bodyTimeout: s.timeoutMs,
      ...(s.dispatcher ? { dispatcher: s.dispatcher } : {}),
    });
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).message;
    throw new TargetUnreachableError(`load: cannot reach ${url.origin} (${code}) during scenario setup`);
  }
  const chunks: Buffer[] = [];
  const bound = s.maxBodyBytes ?? MAX_SETUP_BODY;
  let size = 0;
  let truncated = false;
  for await (const c of res.body) {
    size += (c as Buffer).length;
    if (size > bound) {
      truncated = true;
      res.body.destroy();
      break;
    }
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let json: JsonFields | undefined;
  // A cut body is never parsed: a prefix that happens to be valid JSON would read as a short answer.
  if (!truncated) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.statusCode, headers: res.headers, text, json, truncated };
}

/** The token request body (one helper for every non-check caller: src/client/credentials.ts). */
export function tokenBody(c: ClientCredentials, model: Model): Record<string, string> {
  return tokenRequest(model, c).body;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** S2S token for `client`; backs off on 429 (bounded retries, bounded waits). */
export async function s2sToken(s: SetupHttp, client: ClientCredentials | undefined): Promise<string> {
  return (await issueToken(s, client)).token;
}

export async function issueToken(s: SetupHttp, client: ClientCredentials | undefined): Promise<IssuedToken> {
  if (!client?.client_id || !client.client_secret) throw new CredentialsError('load: the profile has no clients[0] credentials (client_id, client_secret)');
  const { path } = operation(s, 'createToken');
  for (let attempt = 0; ; attempt++) {
    const r = await sendOp(s, 'createToken', {}, tokenBody(client, s.model));
    if (r.status === 200 && typeof r.json?.access_token === 'string') {
      return { token: r.json.access_token as string, ...(typeof r.json.expires_at === 'number' ? { expiresAt: r.json.expires_at as number } : {}) };
    }
    if (r.status === 429 && attempt < RETRY_DEFAULTS.maxRetries) {
      const ra = r.headers['retry-after'];
      await sleep(backoffDelay(attempt + 1, Array.isArray(ra) ? ra[0] : ra, RETRY_DEFAULTS));
      continue;
    }
    if (r.status === 401 || r.status === 400) throw new CredentialsError(`load: the target rejected clients[0] at POST ${path} (HTTP ${r.status} ${r.json?.error_reason ?? ''})`);
    throw new CredentialsError(`load: could not get an S2S token for clients[0] (HTTP ${r.status}${r.status === 429 ? ', still rate limited after backoff' : ''})`);
  }
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
  // The preferred or the deprecated name of the user-read alias, as the model names them.
  const id = userIdOf(s.model, r.json);
  if (r.status !== 200 && r.status !== 201) throw new ConfigError(`load: setup could not create a user (createUserV2 ${operation(s, 'createUserV2').path}: HTTP ${r.status} ${r.json?.error_reason ?? ''})`);
  if (typeof id !== 'string') throw new ConfigError('load: setup created a user but the response carries no user_id');
  return id;
}

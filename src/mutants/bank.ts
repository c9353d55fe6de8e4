// The mutant bank: variants of the reference implementation as data. A FAULTY variant breaks exactly
// one documented rule (spec/rules ids in `breaks`); a BENIGN variant changes only what the spec
// leaves free. `baas-conform selftest` runs every check against every variant: each faulty variant
// must be caught by a failing check naming its rule, and no benign variant may fail any check.
//
// Mutations use, in order of preference: the reference's named fault points (opts.faults), a
// response transform (opts.transform: status, headers, body of one response), reference options
// (latency, rate limits), and — only where the request must be seen or the transport framing
// changed — the interception proxy (proxy.ts).

import { createHash, randomUUID } from 'node:crypto';
import { loadModel } from '../model/index.ts';
import type { OutgoingResponse, ReferenceOptions, ResponseTransform, TransformRequest } from '../reference/index.ts';
import type { ProxyContext, ProxyHooks, ProxyRequest, ProxyResponse } from './proxy.ts';

export type VariantKind = 'faulty' | 'benign';

export interface MutantVariant {
  /** Stable id, e.g. `token.client-id-missing.wrong-message`. */
  id: string;
  kind: VariantKind;
  /** Rule ids (spec/rules) the variant breaks: exactly one for faulty, none for benign. */
  breaks: string[];
  description: string;
  /** Reference options: faults, transform, latencyMs, rateLimit. */
  options: Partial<ReferenceOptions>;
  /** Request-aware or transport-level mutation through the interception proxy (proxy.ts). */
  proxy?: ProxyHooks;
}

// ------------------------------------------------------------------------------------- helpers

const JSON_TYPE = 'application/json; charset=utf-8';

/** Section 7 category of an HTTP status (bank.test.ts checks these against the model). */
export const CATEGORY_OF: Record<number, string> = {
  400: 'CategoryValidationFailure',
  401: 'CategoryUnauthorized',
  500: 'CategoryInternalFailure',
  429: 'CategoryTransientFailure',
};

const is2xx = (status: number) => status >= 200 && status < 300;

function parse(text: string): any {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Operations the transform applies to (undefined = any). */
type Ops = string[] | undefined;
const inOps = (ops: Ops, req: { operationId?: string }) => ops === undefined || (req.operationId !== undefined && ops.includes(req.operationId));

type Edit = (body: any, res: OutgoingResponse, req: TransformRequest) => any;

/** Rewrites the JSON body of the responses `when` selects; `edit` mutates the body or returns a new one. */
function rewrite(when: (req: TransformRequest, res: OutgoingResponse, body: any) => boolean, edit: Edit): ResponseTransform {
  return (req, res) => {
    const body = parse(res.body);
    if (body === undefined || !when(req, res, body)) return;
    const out = edit(body, res, req);
    res.body = JSON.stringify(out === undefined ? body : out);
  };
}

/** Successful answers of `ops`. */
const onOk = (ops: string[], edit: Edit) => rewrite((req, res) => is2xx(res.status) && inOps(ops, req), edit);

/** Error answers carrying `message` (the section 7 row), optionally only on `ops`. */
const onError = (message: string, edit: Edit, ops?: Ops) =>
  rewrite((req, res, body) => res.status >= 400 && isObject(body) && body.error_description === message && inOps(ops, req), edit);

/** Moves an error to another HTTP status, keeping the body consistent (category and http_status_code follow). */
function restatus(body: any, res: OutgoingResponse, status: number): void {
  res.status = status;
  body.error_category = { category: CATEGORY_OF[status] ?? 'CategoryValidationFailure', http_status_code: status };
}

/**
 * "Accepts" a request the spec says must be refused: the error carrying `message` on `ops` becomes a
 * 200 with the last successful body this operation gave on this server (a plausible answer).
 */
function acceptInstead(message: string, ops: string[]): ResponseTransform {
  const last = new Map<string, string>();
  return (req, res) => {
    if (!inOps(ops, req)) return;
    const key = `${String(req.headers.host)}|${req.operationId}`;
    if (is2xx(res.status)) {
      last.set(key, res.body);
      return;
    }
    const body = parse(res.body);
    if (res.status < 400 || !isObject(body) || body.error_description !== message) return;
    res.status = 200;
    res.body = last.get(key) ?? '{}';
    res.headers = { 'content-type': JSON_TYPE };
  };
}

/** Runs several transforms in order on the same response. */
function chain(...ts: ResponseTransform[]): ResponseTransform {
  return async (req, res) => {
    let cur = res;
    for (const t of ts) cur = (await t(req, cur)) ?? cur;
    return cur;
  };
}

/** Applies `fn` to every object in a JSON tree (depth-first, children before parents). */
function walk(v: any, fn: (o: Record<string, any>) => void): void {
  if (Array.isArray(v)) for (const x of v) walk(x, fn);
  else if (isObject(v)) {
    for (const x of Object.values(v)) walk(x, fn);
    fn(v);
  }
}

function mapDeep(v: any, fn: (v: any, key?: string) => any, key?: string): any {
  if (Array.isArray(v)) return v.map((x) => mapDeep(x, fn, key));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapDeep(x, fn, k)]));
  return fn(v, key);
}

function reverseKeys(v: any): any {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]));
  return v;
}

function reverseArrays(v: any): any {
  if (Array.isArray(v)) return v.map(reverseArrays).reverse();
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reverseArrays(x)]));
  return v;
}

/** Messages of the section 7 rows (the model's error rules that show a message). */
let rowMessages: Promise<Set<string>> | undefined;
function rowMessagesOf(): Promise<Set<string>> {
  rowMessages ??= loadModel().then((m) => new Set(m.rules.flatMap((r) => (r.kind === 'error' && r.message ? [r.message] : []))));
  return rowMessages;
}

/**
 * Validation failures outside the section 7 tables: 400 answers of the token endpoint whose message is
 * no row's (e.g. a wrong-typed client_id). Mutating only these breaks the body-shape/category rules
 * without touching any row.
 */
function onNonRowTokenError(edit: Edit): ResponseTransform {
  return async (req, res) => {
    if (req.operationId !== 'createToken' || res.status !== 400) return;
    const body = parse(res.body);
    if (!isObject(body) || typeof body.error_description !== 'string') return;
    if ((await rowMessagesOf()).has(body.error_description)) return;
    const out = edit(body, res, req);
    res.body = JSON.stringify(out === undefined ? body : out);
  };
}

function errorBody(status: number, reason: string, message: string, field?: string) {
  return {
    error_reason: reason,
    error_description: message,
    error_category: { category: CATEGORY_OF[status] ?? 'CategoryValidationFailure', http_status_code: status },
    error_details: field ? [{ key: 'field', details: field }] : [],
  };
}

function proxyError(status: number, reason: string, message: string, field?: string): ProxyResponse {
  const body = errorBody(status, reason, message, field);
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(body), json: body };
}

/** A proxy response whose JSON body was edited. */
function proxyJson(res: ProxyResponse, body: any): ProxyResponse {
  return { ...res, body: JSON.stringify(body), json: body };
}

const has = (o: any, k: string) => isObject(o) && o[k] !== undefined;

/** Every client id the reference's profile knows (the token endpoint's "known" clients). */
function knownClients(ctx: ProxyContext): Set<string> {
  const p = ctx.profile;
  return new Set([...p.clients, ...Object.values(p.special_clients ?? {})].flatMap((c) => (c ? [c.client_id] : [])));
}

// ---------------------------------------------------------------------------- user-visible sets

/** Operations that authenticate with the user identity (user token, or S2S + identity header). */
const USER_READS = ['getUserV1', 'getUserV2'];
const IDP_OPS = ['authorizeUser', 'registerRetailUser'];
const S2S_PROBES = ['getConfig', 'getValidationRules'];
const USER_READ_OPS = ['getUserV1', 'getUserV2', 'validateRetailUser'];
const CREATE_OPS = ['createUserV1', 'createUserV2', 'registerRetailUser', 'createVirtualCard', 'createRecipientV2', 'createXrplAccount', 'createBankAccount', 'tokenizeCard'];
const THREE_DS = ['approve3ds', 'decline3ds'];

// --------------------------------------------------------------------------------- ULID-like ids

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A deterministic ULID-shaped id (26 Crockford base32 characters) for a UUID. */
export function ulidOf(uuid: string): string {
  let n = BigInt(`0x${uuid.replace(/-/g, '')}`);
  let s = '';
  for (let i = 0; i < 26; i++) {
    s = CROCKFORD[Number(n & 31n)] + s;
    n >>= 5n;
  }
  return s;
}

interface IdState {
  back: Map<string, string>;
  users: Set<string>;
}

function idState(ctx: ProxyContext): IdState {
  let s = ctx.state.get('ids') as IdState | undefined;
  if (!s) {
    s = { back: new Map(), users: new Set() };
    ctx.state.set('ids', s);
  }
  return s;
}

/** Rewrites UUID values to ULID-like ids, except user ids (section 2 fixes those as UUIDs). */
function toUlids(body: any, s: IdState, userIdAtTop = false): any {
  walk(body, (o) => {
    if (typeof o.user_id === 'string') s.users.add(o.user_id);
  });
  if (userIdAtTop && isObject(body) && typeof body.id === 'string') s.users.add(body.id);
  return mapDeep(body, (v) => {
    if (typeof v !== 'string' || !UUID_RE.test(v) || s.users.has(v)) return v;
    const u = ulidOf(v);
    s.back.set(u, v);
    return u;
  });
}

function fromUlids(v: any, s: IdState): any {
  return mapDeep(v, (x) => (typeof x === 'string' && s.back.has(x) ? s.back.get(x) : x));
}

const ulidProxy: ProxyHooks = {
  request(req, ctx) {
    const s = idState(ctx);
    if (s.back.size === 0) return;
    req.path = req.path
      .split('/')
      .map((seg) => {
        let d: string;
        try {
          d = decodeURIComponent(seg);
        } catch {
          return seg;
        }
        return s.back.has(d) ? encodeURIComponent(s.back.get(d)!) : seg;
      })
      .join('/');
    if (req.query) {
      const q = new URLSearchParams(req.query);
      for (const [k, v] of [...q.entries()]) if (s.back.has(v)) q.set(k, s.back.get(v)!);
      req.query = q.toString();
    }
    if (req.json !== undefined) {
      req.json = fromUlids(req.json, s);
      req.body = Buffer.from(JSON.stringify(req.json));
    }
    return req;
  },
  response(req, res, ctx) {
    if (res.json === undefined || !is2xx(res.status)) return;
    const retail = req.method === 'POST' && req.path === '/api/v1/user/retail';
    return proxyJson(res, toUlids(res.json, idState(ctx), retail || /^\/api\/v[12]\/user$/.test(req.path)));
  },
  webhook(_path, body, ctx) {
    return toUlids(body, idState(ctx));
  },
};

// ------------------------------------------------------------------------------------ variants

const faulty = (id: string, breaks: string, description: string, options: Partial<ReferenceOptions>, proxy?: ProxyHooks): MutantVariant => ({
  id,
  kind: 'faulty',
  breaks: [breaks],
  description,
  options,
  ...(proxy ? { proxy } : {}),
});

const benign = (id: string, description: string, options: Partial<ReferenceOptions>, proxy?: ProxyHooks): MutantVariant => ({
  id,
  kind: 'benign',
  breaks: [],
  description,
  options,
  ...(proxy ? { proxy } : {}),
});

const faults = (...names: string[]) => ({ faults: new Set(names) });

/** Builds the bank. Stateful transforms get fresh state on every call. */
export function buildMutantBank(): MutantVariant[] {
  return [
    // ------------------------------------------------------------------ token endpoint (section 7)
    faulty('token.client-id-missing.wrong-message', 'ERR-TOKEN-CLIENT-ID-MISSING', 'client_id missing answers "client_id is required" instead of "client id is required"', {
      transform: onError('client id is required', (b) => void (b.error_description = 'client_id is required'), ['createToken']),
    }),
    faulty('token.client-secret-missing.401', 'ERR-TOKEN-CLIENT-SECRET-MISSING', 'client_secret missing answers 401 instead of 400', {
      transform: onError('client secret is required', (b, res) => restatus(b, res, 401), ['createToken']),
    }),
    faulty('token.grant-type.not-checked', 'ERR-TOKEN-GRANT-TYPE-INVALID', 'any grant_type is accepted', faults('token.accept-any-grant-type')),
    faulty('token.unknown-client.400', 'ERR-TOKEN-UNKNOWN-CLIENT', 'an unknown client_id answers 400 (validation) instead of 401', {}, {
      response(req, res, ctx) {
        if (req.path !== '/api/v1/token' || res.status !== 401 || typeof req.json?.client_id !== 'string' || knownClients(ctx).has(req.json.client_id)) return;
        const b = res.json;
        if (!isObject(b)) return;
        b.error_category = { category: CATEGORY_OF[400], http_status_code: 400 };
        return proxyJson({ ...res, status: 400 }, b);
      },
    }),
    faulty('token.wrong-secret.wrong-message', 'ERR-TOKEN-WRONG-SECRET', 'a wrong client_secret of a known client answers "Invalid client secret"', {}, {
      response(req, res, ctx) {
        if (req.path !== '/api/v1/token' || res.status !== 401 || !knownClients(ctx).has(req.json?.client_id)) return;
        if (res.json?.error_description !== 'Invalid client credentials') return;
        return proxyJson(res, { ...res.json, error_description: 'Invalid client secret' });
      },
    }),
    faulty('token.no-secret.wrong-reason', 'ERR-TOKEN-NO-SECRET-CONFIGURED', 'a client with no secret configured gets reason ErrorNotSupported instead of ErrorPermissionDenied', {
      transform: onError('Client credentials access is not enabled for this account', (b) => void (b.error_reason = 'ErrorNotSupported'), ['createToken']),
    }),
    faulty('token.company-type.400', 'ERR-TOKEN-COMPANY-TYPE', 'the company-type restriction answers 400 instead of 401', {
      transform: onError('Client credentials are not supported for this company type', (b, res) => restatus(b, res, 400), ['createToken']),
    }),
    faulty('token.response.token-type-jwt', 'AUTH-S2S-TOKEN-RESPONSE', 'the token response carries token_type "JWT" instead of "Bearer"', {
      transform: onOk(['createToken'], (b) => void (b.token_type = 'JWT')),
    }),
    faulty('token.validity.one-hour', 'LIMIT-S2S-TOKEN-VALIDITY', 'S2S tokens are valid for 3600 s instead of 172800 s', faults('token.wrong-validity')),

    // ------------------------------------------------------------------------ S2S token (section 7)
    faulty('s2s.signature.not-checked', 'ERR-S2S-SIGNATURE-INVALID', 'config reads accept an S2S token whose HMAC signature does not verify', {
      transform: acceptInstead('Token signature is not valid', S2S_PROBES),
    }),
    faulty('s2s.expiry.not-checked', 'ERR-S2S-TOKEN-EXPIRED', 'config reads accept an expired S2S token', {
      transform: acceptInstead('Token is expired', S2S_PROBES),
    }),
    faulty('s2s.expired.400', 'ERR-S2S-TOKEN-EXPIRED', 'an expired S2S token answers 400 ErrorInvalidField instead of 401 ErrorExpired', faults('s2s.expired-as-400')),
    faulty('s2s.azp.not-required', 'ERR-S2S-AZP-MISSING', 'an S2S token without the azp claim is accepted', {
      transform: acceptInstead('Client id claim is missing', S2S_PROBES),
    }),
    faulty('s2s.company-id.not-required', 'ERR-S2S-COMPANY-ID-MISSING', 'an S2S token without the company_id claim is accepted', {
      transform: acceptInstead('Company id claim is missing', S2S_PROBES),
    }),
    faulty('s2s.auth-header-missing.wrong-message', 'ERR-S2S-AUTH-HEADER-MISSING', 'no Authorization header on S2S calls answers "Authorization header required"', {
      transform: onError('Missing Authorization Headers', (b) => void (b.error_description = 'Authorization header required'), S2S_PROBES),
    }),
    faulty('s2s.bearer-format.401', 'ERR-S2S-BEARER-FORMAT', 'a non-Bearer Authorization header answers 401 instead of 400', {
      transform: onError('Bearer token is not in the correct format', (b, res) => restatus(b, res, 401), S2S_PROBES),
    }),

    // ------------------------------------------------------------------- X-Chain-Id, identity headers
    faulty('chain.not-required', 'AUTH-CHAIN-ID-REQUIRED', 'X-Chain-Id is not required on user calls', faults('chain.optional')),
    faulty('chain.missing.wrong-message', 'ERR-S2S-CHAIN-ID-MISSING', 'a missing X-Chain-Id answers "Missing X-Chain-Id header"', {
      transform: onError('X-Chain-Id header is missing', (b) => void (b.error_description = 'Missing X-Chain-Id header')),
    }),
    faulty('identity.multiple.accepted', 'ERR-S2S-USER-IDENTIFIER-MULTIPLE', 'several identity headers are accepted (the first wins)', faults('identity.allow-multiple')),
    faulty('identity.multiple.wrong-details', 'ERR-S2S-USER-IDENTIFIER-MULTIPLE', 'the multiple-identifiers error names X-User-Id instead of user_identifier in error_details', {
      transform: onError('Multiple user identifiers provided in headers. Only one is allowed', (b) => void (b.error_details = [{ key: 'field', details: 'X-User-Id' }])),
    }),
    faulty('identity.none.500', 'ERR-S2S-USER-IDENTIFIER-MISSING', 'no identity header answers 500 ErrorInternal instead of 400', {
      transform: onError('No valid user identifier provided', (b, res) => {
        restatus(b, res, 500);
        b.error_reason = 'ErrorInternal';
        b.error_description = 'Internal error';
      }),
    }),
    faulty('identity.wallet.smart-wallet-accepted', 'AUTH-X-USER-WALLET-IS-EOA', 'X-User-Wallet also matches the Smart Wallet address', faults('identity.wallet-matches-smart-wallet')),
    faulty('identity.not-found.wrong-reason', 'ERR-S2S-USER-NOT-FOUND', 'an unknown user answers reason ErrorInvalidField instead of ErrorNotFound', {
      transform: onError('Requested user was not found', (b) => void (b.error_reason = 'ErrorInvalidField')),
    }),
    faulty('isolation.cross-company', 'AUTH-COMPANY-ISOLATION', "another company's user is found and returned", faults('identity.cross-company')),

    // ------------------------------------------------------------------------ identity provider
    faulty('idp.aud.not-checked', 'AUTH-IDP-AUDIENCE', "an access token whose aud is not the company's configured app id is accepted", {
      transform: acceptInstead('Client application not registered', ['authorizeUser']),
    }),
    faulty('idp.app-not-registered.401', 'ERR-IDP-APP-NOT-REGISTERED', 'an unregistered provider app answers 401 ErrorPermissionDenied instead of 500 ErrorConfigurationInvalid', {
      transform: onError('Client application not registered', (b, res) => {
        restatus(b, res, 401);
        b.error_reason = 'ErrorPermissionDenied';
      }, IDP_OPS),
    }),
    faulty('idp.id-token-expired.accepted', 'ERR-IDP-ID-TOKEN-EXPIRED', 'an expired identity token is accepted', {
      transform: acceptInstead('Id token is expired', IDP_OPS),
    }),
    faulty('idp.linked-accounts.not-required', 'ERR-IDP-LINKED-ACCOUNTS-MISSING', 'an identity token without linked_accounts is accepted', {
      transform: acceptInstead('Linked accounts claim is missing', IDP_OPS),
    }),
    faulty('idp.access-signature.wrong-reason', 'ERR-IDP-ACCESS-TOKEN-SIGNATURE', 'a bad access-token signature answers reason ErrorExpired', {
      transform: onError('Access token signature is not valid', (b) => void (b.error_reason = 'ErrorExpired'), IDP_OPS),
    }),
    faulty('idp.identity-header-missing.401', 'ERR-IDP-IDENTITY-HEADER-MISSING', 'a missing Identity header answers 401 instead of 400', {
      transform: onError('Missing Identity Headers', (b, res) => restatus(b, res, 401), IDP_OPS),
    }),
    faulty('idp.identifiers-incomplete.401', 'ERR-IDP-IDENTIFIERS-INCOMPLETE', 'linked accounts without email or wallet answer 401 instead of 400', {
      transform: onError('Not all identifiers found in linked accounts', (b, res) => restatus(b, res, 401), IDP_OPS),
    }),

    // ------------------------------------------------------------------------------- user tokens
    faulty('user-token.expiry.not-checked', 'ERR-USER-TOKEN-EXPIRED', 'an expired user token is accepted on user reads', {
      transform: acceptInstead('Token is expired', USER_READS),
    }),
    faulty('user-token.signature.400', 'ERR-USER-TOKEN-SIGNATURE', 'a user token with a bad signature answers 400 instead of 401', {
      transform: onError('Token signature is not valid', (b, res) => restatus(b, res, 400), USER_READS),
    }),
    faulty('user-token.email-claim.not-required', 'ERR-USER-TOKEN-EMAIL-MISSING', 'a user token without the email claim is accepted', {
      transform: acceptInstead('User email claim is missing', USER_READS),
    }),
    faulty('user-token.address-claim.wrong-message', 'ERR-USER-TOKEN-ADDRESS-MISSING', 'a user token without the address claim answers "User wallet claim is missing"', {
      transform: onError('User address claim is missing', (b) => void (b.error_description = 'User wallet claim is missing'), USER_READS),
    }),
    faulty('user-token.user-id-claim.wrong-reason', 'ERR-USER-TOKEN-USER-ID-MISSING', 'a user token without the user id claim answers reason ErrorPermissionDenied', {
      transform: onError('User id claim is missing', (b) => void (b.error_reason = 'ErrorPermissionDenied'), USER_READS),
    }),
    faulty('user-token.issuance.no-expires-at', 'AUTH-USER-TOKEN-ISSUANCE', 'POST /api/v1/user/authorize returns no expires_at', {
      transform: onOk(['authorizeUser'], (b) => void delete b.expires_at),
    }),

    // ------------------------------------------------------------------------- error body (section 7)
    faulty('errors.category.missing', 'ERR-BODY-SHAPE', 'validation failures outside the section 7 tables carry no error_category', {
      transform: onNonRowTokenError((b) => void delete b.error_category),
    }),
    faulty('errors.http-status-code.mismatch', 'ERR-CATEGORY-STATUS', 'validation failures outside the section 7 tables carry http_status_code 422 on a 400 answer', {
      transform: onNonRowTokenError((b) => void (b.error_category = { ...b.error_category, http_status_code: 422 })),
    }),
    faulty('errors.category.wrong', 'ERR-CATEGORY-STATUS', 'validation failures outside the section 7 tables carry CategoryUnauthorized on a 400 answer', {
      transform: onNonRowTokenError((b) => void (b.error_category = { ...b.error_category, category: 'CategoryUnauthorized' })),
    }),

    // ------------------------------------------------------------------ response schemas, content type
    faulty('schema.validation-rules.text-plain', 'ENDPOINT-RESPONSE-SCHEMA', 'GET /api/v1/validation/rules serves its JSON body as text/plain', {
      transform: (req, res) => {
        if (req.operationId === 'getValidationRules' && is2xx(res.status)) res.headers['content-type'] = 'text/plain; charset=utf-8';
      },
    }),
    faulty('schema.wallet.balances-dropped', 'ENDPOINT-RESPONSE-SCHEMA', 'GET /api/v1/wallet omits the required balances array', {
      transform: onOk(['getWallet'], (b) => void delete b.balances),
    }),
    faulty('schema.card.status-number', 'ENDPOINT-RESPONSE-SCHEMA', 'card status is an integer instead of a string', {
      transform: chain(
        onOk(['createVirtualCard'], (b) => void (b.status = 1)),
        onOk(['listCards'], (b) => void (Array.isArray(b?.data) && b.data.forEach((c: any) => (c.status = 1)))),
      ),
    }),

    // ------------------------------------------------------------------------------ users
    faulty('users.create-v2.wrong-id', 'ENDPOINT-USER-CREATE', 'POST /api/v2/user returns an id that is not the new user', {
      transform: onOk(['createUserV2'], (b) => {
        const id = randomUUID();
        if (has(b, 'user_id')) b.user_id = id;
        if (has(b, 'id')) b.id = id;
      }),
    }),

    // ------------------------------------------------------------------------------ aliases
    faulty('alias.user-read.wallet-address-dropped', 'ALIAS-USER-READ-WALLET-ADDRESS', 'user reads omit the deprecated wallet_address', {
      transform: onOk(USER_READ_OPS, (b) => void delete b.wallet_address),
    }),
    faulty('alias.user-read.id-diverges', 'ALIAS-USER-READ-ID', 'user reads carry a deprecated id different from user_id', {
      transform: onOk(USER_READ_OPS, (b) => void (has(b, 'id') && (b.id = randomUUID()))),
    }),
    faulty('alias.3ds.owner-dropped', 'ALIAS-3DS-OWNER', '3DS challenges omit the deprecated owner', {
      transform: onOk(['list3dsRequests'], (b) => void (Array.isArray(b) && b.forEach((c: any) => delete c.owner))),
    }),
    faulty('alias.withdrawal.to-address-diverges', 'ALIAS-WITHDRAWAL-TO-ADDRESS', 'withdrawal requests carry a to_address different from destination_address', {
      transform: onOk(['listWithdrawalRequests'], (b) => void (Array.isArray(b) && b.forEach((w: any) => (w.to_address = `0x${'d'.repeat(40)}`)))),
    }),
    faulty('alias.withdrawal.account-address-dropped', 'ALIAS-WITHDRAWAL-ACCOUNT-ADDRESS', 'withdrawal requests omit the deprecated account_address', {
      transform: onOk(['listWithdrawalRequests'], (b) => void (Array.isArray(b) && b.forEach((w: any) => delete w.account_address))),
    }),
    faulty('alias.mismatch.accepted', 'ALIAS-MISMATCH-REJECTED', 'a request carrying a new name and its deprecated alias with different values is accepted', faults('alias.accept-mismatch')),
    faulty('alias.fx.deprecated-only-refused', 'ALIAS-FX-DEPOSIT-ADDRESS', 'FX estimate with only the deprecated deposit_address is refused (400 destination_address missing)', {}, {
      request(req) {
        if (req.method === 'POST' && req.path === '/api/v1/fx/estimate' && has(req.json, 'deposit_address') && !has(req.json, 'destination_address')) {
          return proxyError(400, 'ErrorMissingField', 'destination_address is required', 'destination_address');
        }
      },
    }),
    faulty('alias.user-create-v2.deprecated-only-refused', 'ALIAS-USER-CREATE-WALLET-ADDRESS-V2', 'POST /api/v2/user with only the deprecated wallet_address is refused', {}, {
      request(req) {
        if (req.method === 'POST' && req.path === '/api/v2/user' && has(req.json, 'wallet_address') && !has(req.json, 'user_address')) {
          return proxyError(400, 'ErrorMissingField', 'user_address is required', 'user_address');
        }
      },
    }),
    faulty('alias.statement.owner-only-refused', 'ALIAS-STATEMENT-OWNER', 'the statement request with the deprecated owner instead of user_address is refused', {}, {
      request(req) {
        if (req.method === 'POST' && req.path === '/api/v1/activity/statement/full' && has(req.json, 'owner') && !has(req.json, 'user_address')) {
          return proxyError(400, 'ErrorMissingField', 'user_address is required', 'user_address');
        }
      },
    }),
    faulty('alias.xrpl.wallet-address-renamed', 'ALIAS-UNCHANGED-WALLET-NAMES', 'the XRPL POST /api/v1/accounts response names wallet_address "address"', {
      transform: onOk(['createXrplAccount'], (b) => {
        if (!has(b, 'wallet_address')) return;
        b.address = b.wallet_address;
        delete b.wallet_address;
      }),
    }),

    faulty('alias.webhook.user-owner-dropped', 'ALIAS-WEBHOOK-USER-OWNER', 'the user webhook omits the deprecated owner', {}, {
      webhook: (path, body) => (path === '/v2/webhooks/user' && isObject(body) ? (delete body.owner, body) : body),
    }),
    faulty('alias.webhook.3ds-owner-diverges', 'ALIAS-WEBHOOK-3DS-OWNER', 'the 3DS webhook carries an owner different from user_address', {}, {
      webhook: (path, body) => (path === '/v2/webhooks/3ds' && isObject(body) && has(body, 'owner') ? { ...body, owner: `0x${'e'.repeat(40)}` } : body),
    }),
    faulty('alias.webhook.withdrawal-to-address-dropped', 'ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS', 'the ERC-20 withdrawal webhook omits the deprecated to_address', {}, {
      webhook: (path, body) => (path === '/v2/webhooks/erc-withdrawals' && isObject(body) ? (delete body.to_address, body) : body),
    }),

    // ---------------------------------------------------------------------------- versioning
    faulty('version.v1.capabilities', 'VERSION-V1-NO-CAPABILITIES', 'GET /api/v1/user returns the capabilities array', faults('user.v1-capabilities')),
    faulty('version.v2.no-capabilities', 'VERSION-V2-CAPABILITIES', 'GET /api/v2/user omits the capabilities array', faults('user.v2-no-capabilities')),
    faulty('version.sepa-status.unknown-value', 'VERSION-SEPA-CAPABILITY-STATUSES', 'the SepaAccount status ActivationNotStarted is shown as "NotStarted" (not a section 3 value)', {
      transform: onOk(['getUserV2'], (b) => {
        for (const c of Array.isArray(b?.capabilities) ? b.capabilities : []) if (c?.type === 'SepaAccount' && c.status === 'ActivationNotStarted') c.status = 'NotStarted';
      }),
    }),

    // ---------------------------------------------------------------------------------- SEPA
    faulty('sepa.wrong-path.allowed', 'STATE-SEPA-WRONG-PATH', 'either activation path is accepted in any status', faults('sepa.allow-wrong-path')),
    faulty('sepa.wrong-path.500', 'ERR-SEPA-WRONG-PATH', 'the wrong activation path answers 500 instead of 400', faults('sepa.wrong-path-500')),
    faulty('sepa.primary-wallet.not-checked', 'STATE-SEPA-PRIMARY-WALLET-REQUIRED', 'the wallet-linking path completes without a Primary Smart Wallet', faults('sepa.no-primary-wallet-check')),
    faulty('sepa.webhook.not-activating', 'STATE-SEPA-WEBHOOK-ACTIVE', 'the SEPA details report does not move the capability to Active (it stays InProgress)', {
      transform: onOk(['getUserV2'], (b) => {
        for (const c of Array.isArray(b?.capabilities) ? b.capabilities : []) if (c?.type === 'SepaAccount' && c.status === 'Active') c.status = 'InProgress';
      }),
    }),
    faulty('sepa.bank-account-webhook.missing', 'EVENT-ACTIVATION-BANK-ACCOUNT', 'SEPA activation emits no bank account webhook', faults('webhooks.no-bank-account')),
    faulty('sepa.chain-error.names-chain', 'ERR-CHAIN-NOT-NUMERIC', 'a non-numeric chain fails validation naming `chain` instead of `chain_id`', faults('sepa.chain-field-named-chain')),
    faulty('sepa.init.wallet-not-primary', 'STATE-SEPA-INIT-RESULT', "init returns a wallet_address that is not one of the user's wallets", {
      transform: onOk(['initBankAccount'], (b) => void (b.wallet_address = `0x${'b'.repeat(40)}`)),
    }),
    faulty('bank.account-type.spei-no-details-id', 'ENDPOINT-BANK-ACCOUNT-TYPES', 'POST /api/v1/bank/accounts with account_type Spei answers 200 without details_id', {}, {
      response(req, res) {
        if (req.method !== 'POST' || req.path !== '/api/v1/bank/accounts' || req.json?.account_type !== 'Spei' || !is2xx(res.status)) return;
        return proxyJson(res, { account_type: 'Spei', status: 'Pending' });
      },
    }),

    // ------------------------------------------------------------------------------------ 3DS
    faulty('3ds.replay.accepted', 'STATE-3DS-NO-REPLAY', 'a decided 3DS challenge can be decided again', faults('3ds.allow-replay')),
    faulty('3ds.expiry.ignored', 'STATE-3DS-EXPIRY', 'expired 3DS challenges can still be decided', faults('3ds.ignore-expiry')),
    faulty('3ds.token-failure.401', 'STATE-3DS-NEVER-401', 'approve/decline answer 401 when the token is rejected (expired, bad signature)', faults('3ds.auth-401')),
    faulty('3ds.not-found.401', 'STATE-3DS-NEVER-401', 'approve/decline answer a refused lookup with 401 instead of 400', {
      transform: rewrite((req, res) => THREE_DS.includes(req.operationId ?? '') && res.status === 400, (b, res) => {
        restatus(b, res, 401);
        b.error_reason = 'ErrorPermissionDenied';
      }),
    }),
    faulty('3ds.other-user.decided', 'STATE-3DS-CALLER-SCOPED', "another user's 3DS challenge can be decided", faults('3ds.other-user')),
    faulty('3ds.not-found.wrong-reason', 'ERR-3DS-NOT-FOUND', 'a refused 3DS lookup answers reason ErrorInvalidField instead of ErrorNotFound', {
      transform: rewrite((req, res, b) => THREE_DS.includes(req.operationId ?? '') && res.status === 400 && b?.error_reason === 'ErrorNotFound', (b) => void (b.error_reason = 'ErrorInvalidField')),
    }),

    // ---------------------------------------------------------------------------- Push to Card
    faulty('p2c.payment-details.no-id', 'FLOW-PUSH-TO-CARD', 'the Card recipient payment_details carry no id', {
      transform: onOk(['createRecipientV2'], (b) => {
        const pd = b?.payment_details;
        for (const p of Array.isArray(pd) ? pd : isObject(pd) ? [pd] : []) delete p.id;
      }),
    }),
    faulty('p2c.execute.no-activity-id', 'FLOW-PUSH-TO-CARD', 'executing a card transfer returns no activity_id', {
      transform: onOk(['executeCardTransfer'], (b) => void delete b.activity_id),
    }),
    faulty('p2c.activity-webhook.missing', 'EVENT-CARD-TRANSFER-ACTIVITY', 'card transfer completion emits no activity webhook', faults('webhooks.no-activity')),

    // ---------------------------------------------------------------------------- withdrawals, cards
    faulty('withdrawal.status.pending', 'STATE-WITHDRAWAL-REQUESTED', 'a pending withdrawal request has status "Pending" instead of "Requested"', {
      transform: onOk(['listWithdrawalRequests'], (b) => void (Array.isArray(b) && b.forEach((w: any) => w.status === 'Requested' && (w.status = 'Pending')))),
    }),
    faulty('cards.close.not-terminal', 'STATE-CARD-CLOSE-TERMINAL', 'activate/block/unblock succeed on a closed card', faults('cards.close-not-terminal')),
    faulty('cards.list.empty', 'ENDPOINT-CARDS', 'GET /api/v1/cards lists no card, even after one was created', {
      transform: onOk(['listCards'], (b) => void (isObject(b) && (b.data = []))),
    }),

    // ----------------------------------------------------------------------------- rate limiting
    faulty('ratelimit.disabled', 'LIMIT-TOKEN-RATE-LIMIT', 'the token endpoint never answers 429', faults('ratelimit.disabled')),
    faulty('ratelimit.wrong-category', 'ERR-RATE-LIMITED', '429 answers carry CategoryValidationFailure instead of CategoryTransientFailure', {
      transform: rewrite((_req, res) => res.status === 429, (b) => void (b.error_category = { category: 'CategoryValidationFailure', http_status_code: 429 })),
    }),
    faulty('ratelimit.500-under-load', 'LIMIT-TOKEN-RATE-LIMIT', 'over the limit the token endpoint answers 500 instead of 429', {
      transform: rewrite((_req, res) => res.status === 429, (b, res) => {
        restatus(b, res, 500);
        b.error_reason = 'ErrorInternal';
        b.error_description = 'Internal error';
        delete res.headers['retry-after'];
      }),
    }),

    // ----------------------------------------------------------------------------- timeout budget
    faulty('timeout.wallets.stall', 'LIMIT-REQUEST-TIMEOUT', 'GET /api/v1/wallets never answers', {
      transform: (req) => (req.operationId === 'listWallets' ? new Promise<void>(() => undefined) : undefined),
    }),

    // =============================================================================== BENIGN
    benign('benign.extra-fields', 'every JSON object in every response (errors included) carries extra unknown fields', {
      transform: rewrite(() => true, (b) => {
        walk(b, (o) => {
          o.x_mutant_extra = 'unknown field';
        });
        if (isObject(b)) b.x_mutant_meta = { request_id: randomUUID(), flags: [1, 2] };
      }),
    }),
    benign('benign.key-order', 'object keys in every JSON response come in reverse order', {
      transform: rewrite(() => true, (b) => reverseKeys(b)),
    }),
    benign('benign.extra-headers', 'responses carry extra headers (request id, cache, security, rate-limit info)', {
      transform: (_req, res) => {
        Object.assign(res.headers, {
          'x-request-id': randomUUID(),
          'x-powered-by': 'mutant-bank',
          'cache-control': 'no-store',
          'strict-transport-security': 'max-age=63072000',
          'x-ratelimit-remaining': '99',
          vary: 'Accept-Encoding',
        });
      },
    }),
    benign('benign.chunked', 'responses use chunked transfer encoding (no content-length)', {}, { chunked: true }),
    benign('benign.content-type-no-charset', 'JSON responses are typed application/json without charset', {
      transform: (_req, res) => {
        if (res.headers['content-type']) res.headers['content-type'] = 'application/json';
      },
    }),
    benign('benign.content-type-upper', 'JSON responses are typed application/json;charset=UTF-8 (no space, upper case)', {
      transform: (_req, res) => {
        if (res.headers['content-type']) res.headers['content-type'] = 'application/json;charset=UTF-8';
      },
    }),
    benign('benign.pretty-json', 'JSON bodies are pretty-printed with a trailing newline', {
      transform: (_req, res) => {
        const b = parse(res.body);
        if (b !== undefined) res.body = `${JSON.stringify(b, null, 2)}\n`;
      },
    }),
    benign('benign.extra-error-details', 'error bodies carry extra error_details entries', {
      transform: rewrite((_req, res, b) => res.status >= 400 && isObject(b), (b) => {
        b.error_details = [...(Array.isArray(b.error_details) ? b.error_details : []), { key: 'trace_id', details: randomUUID() }, { key: 'hint', details: 'see the documentation' }];
      }),
    }),
    benign('benign.latency-50ms', 'every response is delayed by 50 ms (well within the timeout budget)', { latencyMs: 50 }),
    benign('benign.token-429-every-7th', 'every 7th token request answers 429 CategoryTransientFailure with Retry-After: 1', {
      transform: (() => {
        const counts = new Map<string, number>();
        return (req: TransformRequest, res: OutgoingResponse) => {
          if (req.operationId !== 'createToken') return;
          const key = String(req.headers.host);
          const n = (counts.get(key) ?? 0) + 1;
          counts.set(key, n);
          if (n % 7 !== 0 || res.status === 429) return;
          return { status: 429, headers: { 'content-type': JSON_TYPE, 'retry-after': '1' }, body: JSON.stringify(errorBody(429, 'ErrorRateLimited', 'Too many requests')) };
        };
      })(),
    }),
    benign('benign.connection-close', 'every response carries Connection: close', {
      transform: (_req, res) => {
        res.headers.connection = 'close';
      },
    }),
    benign('benign.ulid-ids', 'ids other than user ids (cards, wallets, challenges, recipients, estimations, activities, details) are ULID-like instead of UUIDs', {}, ulidProxy),
    benign('benign.list-order', 'every array in successful responses comes in reverse order', {
      transform: onOkAny((b) => reverseArrays(b)),
    }),
    benign('benign.created-201', 'resource creations answer 201 instead of 200', {
      transform: (req, res) => {
        if (res.status === 200 && CREATE_OPS.includes(req.operationId ?? '')) res.status = 201;
      },
    }),
    benign('benign.429-no-retry-after', '429 answers carry no Retry-After header (the spec does not show one)', faults('ratelimit.no-retry-after')),
    benign('benign.tight-rate-limit', 'a lower token-endpoint limit: 150 per IP and 60 per client per 10 s', { rateLimit: { perIp: 150, perClient: 60, windowMs: 10_000 } }),
  ];
}

function onOkAny(edit: Edit): ResponseTransform {
  return rewrite((_req, res) => is2xx(res.status), edit);
}

/** The bank as built once (for listing; selftest builds a fresh one per run). */
export const MUTANT_BANK: readonly MutantVariant[] = buildMutantBank();

export function variantsById(ids: string[], bank: readonly MutantVariant[] = buildMutantBank()): MutantVariant[] {
  const byId = new Map(bank.map((v) => [v.id, v]));
  return ids.map((id) => {
    const v = byId.get(id);
    if (!v) throw new Error(`unknown mutant variant ${JSON.stringify(id)} (baas-conform selftest --list shows the ${byId.size} variants)`);
    return v;
  });
}

/** A short digest of a variant list (for reports): same bank, same digest. */
export function bankDigest(bank: readonly MutantVariant[]): string {
  return createHash('sha256').update(bank.map((v) => `${v.id}:${v.kind}:${v.breaks.join(',')}`).join('\n')).digest('hex').slice(0, 12);
}

export type { ProxyRequest };

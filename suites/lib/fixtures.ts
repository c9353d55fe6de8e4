// Fixtures shared by the drivers: S2S tokens (cached per target and client), users, identity
// headers, user tokens, the test-control API, forged JWTs, and error assertions whose expected values
// come from the model (never from literals here).

import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT, decodeJwt, decodeProtectedHeader, base64url, type JWTPayload } from 'jose';
import { CheckFailure, expectErrorRule } from '../../src/checks/assert.ts';
import type { CheckContext, HttpRequest, HttpResponse } from '../../src/checks/types.ts';
import type { ErrorRuleId, StateName, StateRuleId } from '../../src/model/types.ts';

export { CheckFailure };

// ---------------------------------------------------------------------------------------------
// Random data

export const rnd = {
  hex(bytes: number): string {
    return randomBytes(bytes).toString('hex');
  },
  /** An EOA-shaped address: 0x + 40 lowercase hex digits. */
  address(): string {
    return `0x${randomBytes(20).toString('hex')}`;
  },
  email(): string {
    return `conform-${randomBytes(8).toString('hex')}@example.com`;
  },
  uuid(): string {
    return randomUUID();
  },
};

/** Real two-letter country codes (section 2: "country code, two letters"). */
export const COUNTRIES = ['DE', 'FR', 'ES', 'IT', 'NL', 'PT', 'IE', 'AT', 'BE', 'PL', 'SE', 'FI', 'GB', 'US', 'MX'];

// ---------------------------------------------------------------------------------------------
// Small response helpers

export function is2xx(res: HttpResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

/** Success may be any 2xx (200 or 201 are both readings the spec allows). */
export function expect2xx(res: HttpResponse, what: string, rules?: string[]): void {
  if (!is2xx(res)) {
    const body = res.text.length > 300 ? `${res.text.slice(0, 300)}…` : res.text;
    throw new CheckFailure(`${what}: expected a 2xx answer, got HTTP ${res.status}: ${body}`, { rules, response: res });
  }
}

export function expectNot2xx(res: HttpResponse, what: string, rules?: string[]): void {
  if (is2xx(res)) throw new CheckFailure(`${what}: expected a refusal, got HTTP ${res.status}: ${res.text.slice(0, 300)}`, { rules, response: res });
}

export function check(condition: unknown, message: string, opts: { rules?: string[]; response?: HttpResponse } = {}): asserts condition {
  if (!condition) throw new CheckFailure(message, opts);
}

/** Fails unless the response is exactly the section 7 row `ruleId` (status, reason, message, category, details) with the section 7 body shape. */
export function expectError(ctx: CheckContext, res: HttpResponse, ruleId: ErrorRuleId, rules?: string[]): void {
  const rule = ctx.model.errorRule(ruleId);
  // A mismatch breaks the row and every rule the caller names (the runner keeps those the check covers).
  const named = [...new Set([...(rules ?? []), ruleId])];
  try {
    expectErrorRule(res, rule);
  } catch (err) {
    if (err instanceof CheckFailure) throw new CheckFailure(err.message, { rules: named, response: res });
    throw err;
  }
  expectErrorShape(ctx, res, named);
}

/** Fails unless the body has the section 7 error shape and its category matches the HTTP status. */
export function expectErrorShape(ctx: CheckContext, res: HttpResponse, rules?: string[]): void {
  const validate = ctx.model.errorBodyValidator;
  if (!validate(res.json)) {
    const problems = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new CheckFailure(`HTTP ${res.status}: error body does not have the section 7 shape: ${problems}: ${res.text.slice(0, 300)}`, { rules, response: res });
  }
  const cat = (res.json as any).error_category;
  if (cat.http_status_code !== res.status) {
    throw new CheckFailure(`error_category.http_status_code ${cat.http_status_code} differs from the HTTP status ${res.status}`, { rules, response: res });
  }
  const want = ctx.model.categoryFor(res.status);
  if (want !== null && cat.category !== want) {
    throw new CheckFailure(`HTTP ${res.status} carries error_category.category ${JSON.stringify(cat.category)}; section 7 gives ${want}`, { rules, response: res });
  }
}

/** Merges header maps left to right; an undefined value removes the header set by an earlier part. */
export function headers(...parts: Record<string, string | undefined>[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of parts) {
    for (const [k, v] of Object.entries(p)) {
      if (v === undefined) delete out[k];
      else out[k] = v;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tokens

export function chainHeader(ctx: CheckContext, value: string = ctx.profile.chain_id): Record<string, string> {
  return { [ctx.model.auth.chain_header]: value };
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

function client(ctx: CheckContext, i: number) {
  const c = ctx.profile.clients[i];
  if (!c) ctx.skip(`needs profile.clients[${i}] (the profile has ${ctx.profile.clients.length} client(s))`);
  return c;
}

/** The grant_type the token endpoint requires (section 4), from the CreateTokenRequest enum of the model. */
export function grantType(ctx: CheckContext): string {
  const e = ctx.model.openapi?.components?.schemas?.CreateTokenRequest?.properties?.grant_type?.enum;
  if (!Array.isArray(e) || e.length !== 1 || typeof e[0] !== 'string') throw new Error('spec/openapi.yaml: CreateTokenRequest.grant_type has no single enum value (section 4: must be client_credentials)');
  return e[0];
}

/** A token request for client i with the three required fields (section 4). */
export function tokenBody(ctx: CheckContext, i = 0): Record<string, string> {
  const c = client(ctx, i);
  return { client_id: c.client_id, client_secret: c.client_secret, grant_type: grantType(ctx) };
}

export function requestToken(ctx: CheckContext, body: unknown, opts: { noRetry?: boolean } = {}): Promise<HttpResponse> {
  return ctx.http.send({ op: 'createToken', body, noRetry: opts.noRetry });
}

const tokenCache = new Map<string, Promise<{ token: string; exp: number }>>();

/** S2S token for client i, cached per target and client, refreshed 5 minutes before expiry. */
export async function s2sToken(ctx: CheckContext, i = 0): Promise<string> {
  const c = client(ctx, i);
  const key = `${ctx.profile.base_url}|${c.client_id}|${c.client_secret}`;
  const buffer = ctx.model.limits.token_refresh_buffer?.value;
  if (buffer === undefined) throw new Error('spec/rules/limits.yaml has no token_refresh_buffer value (section 8: 5 minutes)');
  const cached = tokenCache.get(key);
  if (cached) {
    try {
      const got = await cached;
      if (got.exp - buffer > Date.now() / 1000) return got.token;
    } catch {
      // fall through and fetch again
    }
  }
  const p = (async () => {
    const res = await requestToken(ctx, tokenBody(ctx, i));
    expect2xx(res, `POST /api/v1/token for profile.clients[${i}]`);
    const token = res.json?.access_token;
    check(typeof token === 'string' && token.length > 0, 'token response carries no access_token', { response: res });
    const exp = typeof res.json?.expires_at === 'number' ? res.json.expires_at : Date.now() / 1000 + 600;
    return { token, exp };
  })();
  tokenCache.set(key, p);
  p.catch(() => tokenCache.delete(key));
  return (await p).token;
}

export async function s2sHeaders(ctx: CheckContext, i = 0, opts: { chain?: boolean } = {}): Promise<Record<string, string>> {
  return headers(bearer(await s2sToken(ctx, i)), opts.chain === false ? {} : chainHeader(ctx));
}

// ---------------------------------------------------------------------------------------------
// Users

export interface TestUser {
  id: string;
  email: string;
  /** EOA address given at registration (user_address). */
  address: string;
  country: string;
  /** Index of the client (company) that created it. */
  client: number;
}

export interface NewUser {
  client?: number;
  email?: string;
  address?: string;
  country?: string;
  version?: 'v1' | 'v2';
  /** Request body override (alias checks); default { email, country, user_address }. */
  body?: Record<string, unknown>;
}

/** The user id in a create-user answer ("user id": user_id or id, or a bare string). */
export function userIdFrom(json: any): string | undefined {
  if (typeof json === 'string') return json;
  const v = json?.user_id ?? json?.id ?? json?.data?.user_id ?? json?.data?.id;
  return typeof v === 'string' ? v : undefined;
}

export function createUserRaw(ctx: CheckContext, version: 'v1' | 'v2', h: Record<string, string>, body: unknown): Promise<HttpResponse> {
  return ctx.http.send({ op: version === 'v1' ? 'createUserV1' : 'createUserV2', headers: h, body });
}

/** Creates a user through POST /api/v1/user (or v2) with an S2S token; returns what was registered. */
export async function createUser(ctx: CheckContext, opts: NewUser = {}): Promise<TestUser> {
  const i = opts.client ?? 0;
  const user = {
    email: opts.email ?? rnd.email(),
    address: opts.address ?? rnd.address(),
    country: opts.country ?? 'DE',
  };
  const body = opts.body ?? { email: user.email, country: user.country, user_address: user.address };
  const res = await createUserRaw(ctx, opts.version ?? 'v1', await s2sHeaders(ctx, i), body);
  expect2xx(res, `POST /api/${opts.version ?? 'v1'}/user`);
  const id = userIdFrom(res.json);
  check(id, `POST /api/${opts.version ?? 'v1'}/user answered without a user id: ${res.text.slice(0, 200)}`, { response: res });
  return { id, ...user, client: i };
}

const sharedUsers = new Map<string, Promise<TestUser>>();

/** One user per target and client, created on first use and reused by read-only checks. */
export function sharedUser(ctx: CheckContext, i = 0): Promise<TestUser> {
  const c = client(ctx, i);
  const key = `${ctx.profile.base_url}|${c.client_id}`;
  let p = sharedUsers.get(key);
  if (!p) {
    p = createUser(ctx, { client: i });
    sharedUsers.set(key, p);
    p.catch(() => sharedUsers.delete(key));
  }
  return p;
}

export type IdentityKind = 'wallet' | 'email' | 'id';

/** Header name for an identity kind, from the model's section 5 list. */
export function identityHeader(ctx: CheckContext, kind: IdentityKind): string {
  const names = ctx.model.auth.identity_headers;
  const re = kind === 'wallet' ? /wallet/i : kind === 'email' ? /email/i : /-id$/i;
  const name = names.find((n) => re.test(n));
  if (!name) throw new Error(`the model's identity_headers ${JSON.stringify(names)} name no ${kind} header`);
  return name;
}

export const IDENTITY_KINDS: IdentityKind[] = ['wallet', 'email', 'id'];

export function identityValue(user: TestUser, kind: IdentityKind): string {
  return kind === 'wallet' ? user.address : kind === 'email' ? user.email : user.id;
}

/** S2S token of the user's company + one identity header + X-Chain-Id. */
export async function userHeaders(ctx: CheckContext, user: TestUser, kind: IdentityKind = 'id'): Promise<Record<string, string>> {
  return headers(await s2sHeaders(ctx, user.client), { [identityHeader(ctx, kind)]: identityValue(user, kind) });
}

/** POST /api/v1/user/authorize (S2S form): the raw answer. */
export async function authorizeRaw(ctx: CheckContext, user: TestUser, extra: Record<string, string | undefined> = {}): Promise<HttpResponse> {
  const h = headers(await s2sHeaders(ctx, user.client), { [identityHeader(ctx, 'wallet')]: user.address }, extra);
  return ctx.http.send({ op: 'authorizeUser', headers: h });
}

/** A user-scoped token for `user` (S2S + X-User-Wallet + X-Chain-Id). */
export async function userToken(ctx: CheckContext, user: TestUser): Promise<string> {
  const res = await authorizeRaw(ctx, user);
  expect2xx(res, 'POST /api/v1/user/authorize');
  const token = res.json?.access_token;
  check(typeof token === 'string' && token.length > 0, 'user authorize answer carries no access_token', { response: res });
  return token;
}

/** GET /api/v1/user or /api/v2/user with the given headers. */
export function readUser(ctx: CheckContext, version: 'v1' | 'v2', h: Record<string, string>): Promise<HttpResponse> {
  return ctx.http.send({ op: version === 'v1' ? 'getUserV1' : 'getUserV2', headers: h });
}

/** Sends an operation as `user` (S2S + X-User-Id + X-Chain-Id). */
export async function asUser(ctx: CheckContext, user: TestUser, req: Omit<HttpRequest, 'headers'> & { headers?: Record<string, string> }): Promise<HttpResponse> {
  return ctx.http.send({ ...req, headers: headers(await userHeaders(ctx, user), req.headers ?? {}) });
}

/** Smart Wallet addresses of the user (GET /api/v1/wallets). */
export async function smartWallets(ctx: CheckContext, user: TestUser): Promise<string[]> {
  const res = await asUser(ctx, user, { op: 'listWallets' });
  expect2xx(res, 'GET /api/v1/wallets');
  return walletItems(res.json).map((w) => w?.wallet_address).filter((a): a is string => typeof a === 'string');
}

/** Wallet list items: a bare array, or wrapped in data / wallets. */
export function walletItems(json: any): any[] {
  if (Array.isArray(json)) return json;
  for (const k of ['data', 'wallets', 'items']) if (Array.isArray(json?.[k])) return json[k];
  return [];
}

/** Items of a list answer: a bare array or { data: [...] }. */
export function listItems(json: any): any[] {
  if (Array.isArray(json)) return json;
  if (Array.isArray(json?.data)) return json.data;
  return [];
}

// ---------------------------------------------------------------------------------------------
// Test-control API (spec/control.yaml)

const clockAdvanced = new Map<string, number>();
/** Per target instance (a later target may reuse a base_url on a freed port). */
const clockKey = (ctx: CheckContext) => `${ctx.profile.base_url}|${ctx.profile.clients[0]?.client_id}`;

export async function control(ctx: CheckContext, method: string, path: string, body?: unknown): Promise<HttpResponse> {
  if (!ctx.profile.control_url) ctx.skip('needs the test-control API: profile.control_url is not set');
  const res = await ctx.http.send({ server: 'control', method, path, body: body ?? (method === 'GET' ? undefined : {}) });
  if (!is2xx(res)) throw new Error(`test-control ${method} ${path} failed with HTTP ${res.status}: ${res.text.slice(0, 300)}`);
  return res;
}

/** Moves the target's clock forward (control POST /clock/advance); remembers the total per target. */
export async function advanceClock(ctx: CheckContext, seconds: number): Promise<void> {
  await control(ctx, 'POST', '/clock/advance', { seconds });
  const key = clockKey(ctx);
  clockAdvanced.set(key, (clockAdvanced.get(key) ?? 0) + seconds);
}

/** Seconds this process moved the target's clock forward (tolerance for "now" comparisons). */
export function clockSkewAllowance(ctx: CheckContext): number {
  return clockAdvanced.get(clockKey(ctx)) ?? 0;
}

export function userPath(user: TestUser, rest: string): string {
  return `/users/${encodeURIComponent(user.id)}${rest}`;
}

// ---------------------------------------------------------------------------------------------
// JWTs

const enc = new TextEncoder();

/** Signs `payload` as an HS256 JWT (claims exactly as given; nothing added). */
export async function forgeHs256(payload: JWTPayload, secret: string, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ typ: 'JWT', ...header, alg: 'HS256' }).sign(enc.encode(secret));
}

/** The same token with its signature altered (first signature byte flipped): needs no secret. */
export function tamperSignature(token: string): string {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[2]) throw new Error('not a signed compact JWT');
  const sig = base64url.decode(parts[2]);
  sig[0] ^= 0x01;
  return `${parts[0]}.${parts[1]}.${base64url.encode(sig)}`;
}

export function jwtClaims(token: string): JWTPayload {
  return decodeJwt(token);
}

export function jwtHeader(token: string): Record<string, unknown> {
  return decodeProtectedHeader(token) as Record<string, unknown>;
}

/** Claim names whose value equals `value` (addresses and emails compared case-insensitively). */
export function claimsCarrying(payload: JWTPayload, value: string): string[] {
  const v = value.toLowerCase();
  return Object.entries(payload)
    .filter(([, x]) => typeof x === 'string' && x.toLowerCase() === v)
    .map(([k]) => k);
}

/** Polls `fn` until it returns a value or `timeoutMs` passes. */
export async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 250): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() >= end) return undefined;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

// ---------------------------------------------------------------------------------------------
// fast-check helpers

/** numRuns scaled by the cost of one run: cheap (a request or two), user (creates a user), model (a command sequence). */
export function runsFor(ctx: CheckContext, cost: 'cheap' | 'user' | 'model'): number {
  if (cost === 'cheap') return ctx.numRuns;
  if (cost === 'user') return Math.max(2, Math.ceil(ctx.numRuns / 10));
  return Math.max(2, Math.ceil(ctx.numRuns / 10));
}

export interface UserData {
  email: string;
  country: string;
  address: string;
}

const DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example.com'];

/** Generated registration data. Values are made unique per use with `uniqueUser` (registration refuses duplicates). */
export function userDataArb(): fc.Arbitrary<UserData> {
  return fc.record({
    email: fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/), fc.constantFrom(...DOMAINS)).map(([l, d]) => `${l}@${d}`),
    country: fc.constantFrom(...COUNTRIES),
    address: fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
  });
}

/** Same shape, but unique: a random suffix on the email's local part and on the address's last 6 bytes. */
export function uniqueUser(d: UserData): UserData {
  const [local, domain] = d.email.split('@');
  return { email: `${local}${rnd.hex(5)}@${domain}`, country: d.country, address: `${d.address.slice(0, 30)}${rnd.hex(6)}` };
}

// ---------------------------------------------------------------------------------------------
// Alias helpers (section 9)

/** Both names present with the same value (and equal to `expected` when given; addresses compare case-insensitively). */
export function aliasProblem(obj: any, oldName: string, newName: string, expected?: string): string | undefined {
  if (obj === null || typeof obj !== 'object') return `not an object: ${JSON.stringify(obj)}`;
  const has = (k: string) => Object.hasOwn(obj, k) && obj[k] !== undefined;
  if (!has(newName)) return `${newName} is missing (deprecated ${oldName} = ${JSON.stringify(obj[oldName])})`;
  if (!has(oldName)) return `deprecated ${oldName} is missing (responses keep both names, section 9.3); ${newName} = ${JSON.stringify(obj[newName])}`;
  if (obj[oldName] !== obj[newName]) return `${oldName} ${JSON.stringify(obj[oldName])} differs from ${newName} ${JSON.stringify(obj[newName])}`;
  if (expected !== undefined && (typeof obj[newName] !== 'string' || obj[newName].toLowerCase() !== expected.toLowerCase())) {
    return `${newName} ${JSON.stringify(obj[newName])}, expected ${JSON.stringify(expected)}`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Control-API shortcuts

export async function create3ds(ctx: CheckContext, user: TestUser): Promise<{ transaction_id: string; expires_at?: number }> {
  const res = await control(ctx, 'POST', userPath(user, '/3ds'), { amount: 12.5, currency: 'EUR' });
  const id = res.json?.transaction_id;
  if (typeof id !== 'string') throw new Error(`test-control POST /users/{id}/3ds answered no transaction_id: ${res.text.slice(0, 200)}`);
  return res.json;
}

export async function createWithdrawal(ctx: CheckContext, user: TestUser, destination: string): Promise<any> {
  return (await control(ctx, 'POST', userPath(user, '/withdrawal-requests'), { destination_address: destination })).json;
}

export async function setSepaStatus(ctx: CheckContext, user: TestUser, status: string): Promise<void> {
  await control(ctx, 'PUT', userPath(user, '/capabilities/SepaAccount'), { status });
}

export async function setPrimaryWallet(ctx: CheckContext, user: TestUser, present: boolean): Promise<void> {
  await control(ctx, 'PUT', userPath(user, '/primary-wallet'), { present });
}

/** SepaAccount capability status read through GET /api/v2/user (undefined when the capability is absent). */
export async function sepaStatus(ctx: CheckContext, user: TestUser): Promise<{ status: string | undefined; res: HttpResponse }> {
  const res = await readUser(ctx, 'v2', await userHeaders(ctx, user));
  expect2xx(res, 'GET /api/v2/user');
  const caps = Array.isArray(res.json?.capabilities) ? res.json.capabilities : [];
  const cap = caps.find((c: any) => c?.type === 'SepaAccount');
  return { status: cap?.status, res };
}

/** A section 3 machine from the model (spec/rules/states.yaml); throws when it is absent. */
export function machine(ctx: CheckContext, name: string) {
  const m = ctx.model.machines.find((x) => x.name === name);
  if (!m) throw new Error(`spec/rules/states.yaml has no ${name} machine`);
  return m;
}

/** The SepaAccount statuses of section 3, from the model (spec/rules/states.yaml). */
export function sepaStatuses(ctx: CheckContext): StateName[] {
  const states = machine(ctx, 'SepaAccount').states;
  if (states.length === 0) throw new Error('spec/rules/states.yaml: the SepaAccount machine lists no states (section 3 values)');
  return states;
}

export interface SepaStates {
  notStarted: string;
  verificationRequired: string;
  registrationPending: string;
  inProgress: string;
  active: string;
}

function transitionOf(ctx: CheckContext, ruleId: StateRuleId) {
  const r = ctx.model.rule(ruleId);
  const t = r.kind === 'state' ? r.transitions?.[0] : undefined;
  if (!t) throw new Error(`spec/rules/states.yaml: rule ${ruleId} has no transition`);
  return t;
}

/** The SepaAccount statuses by role, read from the section 3 transitions of the model. */
export function sepaStates(ctx: CheckContext): SepaStates {
  const direct = transitionOf(ctx, 'STATE-SEPA-DIRECT-ACTIVATION');
  const link = transitionOf(ctx, 'STATE-SEPA-WALLET-LINK-ACTIVATION');
  const webhook = transitionOf(ctx, 'STATE-SEPA-WEBHOOK-ACTIVE');
  if (!direct.to || !webhook.to) throw new Error('spec/rules/states.yaml: SEPA activation transitions lack a target state');
  const named = [direct.from, link.from, direct.to, webhook.to];
  const rest = sepaStatuses(ctx).filter((x) => !named.includes(x));
  if (rest.length !== 1) throw new Error(`spec/rules/states.yaml: expected exactly one SepaAccount state outside the activation transitions (registration pending), found ${JSON.stringify(rest)}`);
  return { notStarted: direct.from, verificationRequired: link.from, registrationPending: rest[0], inProgress: direct.to, active: webhook.to };
}

// ---------------------------------------------------------------------------------------------
// SEPA wallet-linking path helpers (section 3)

/**
 * The Primary Smart Wallet's signature of `challenge`, from the test wallet of the target's control
 * API (POST /users/{user_id}/sign; the spec does not show the signature scheme and the wallet keys
 * live with the target). Undefined when the control API has no sign endpoint (404/405/501).
 */
export async function signChallenge(ctx: CheckContext, user: TestUser, challenge: string): Promise<string | undefined> {
  if (!ctx.profile.control_url) ctx.skip('needs the test-control API: profile.control_url is not set');
  const path = userPath(user, '/sign');
  const res = await ctx.http.send({ server: 'control', method: 'POST', path, body: { challenge } });
  if ([404, 405, 501].includes(res.status)) {
    ctx.log(`test-control POST ${path} answered HTTP ${res.status}: the control API has no sign endpoint`);
    return undefined;
  }
  if (!is2xx(res)) throw new Error(`test-control POST ${path} failed with HTTP ${res.status}: ${res.text.slice(0, 300)}`);
  const signed = res.json?.signed_challenge;
  if (typeof signed !== 'string') throw new Error(`test-control POST ${path} answered no signed_challenge: ${res.text.slice(0, 200)}`);
  return signed;
}

export const NO_SIGNER = 'the test-control API has no POST /users/{user_id}/sign (spec/control.yaml), so the challenge cannot be signed as the Primary Smart Wallet and complete cannot succeed';

/** The signature, or a skip with NO_SIGNER when the control API cannot sign. */
export async function requireSigned(ctx: CheckContext, user: TestUser, challenge: string): Promise<string> {
  const s = await signChallenge(ctx, user, challenge);
  if (s === undefined) ctx.skip(NO_SIGNER);
  return s;
}

/** A well-formed signature nobody made (for refusals where the signature is not the point). */
export function unsignedChallenge(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}

export async function initSepa(ctx: CheckContext, user: TestUser, chain: unknown = ctx.profile.chain_id): Promise<HttpResponse> {
  return asUser(ctx, user, { op: 'initBankAccount', body: { chain } });
}

/** POST /api/v1/bank/accounts/complete with `signed_challenge` as given. */
export async function completeSepa(ctx: CheckContext, user: TestUser, signed: string, chain: unknown = ctx.profile.chain_id): Promise<HttpResponse> {
  return asUser(ctx, user, { op: 'completeBankAccount', body: { chain, signed_challenge: signed } });
}

/** init, then the test wallet signs the challenge: the input of a complete whose only possible fault is what the caller changes. */
export async function initAndSign(ctx: CheckContext, user: TestUser, what = 'POST /api/v1/bank/accounts/init'): Promise<{ init: HttpResponse; challenge: string; signed: string }> {
  const init = await initSepa(ctx, user);
  expect2xx(init, what);
  const challenge = init.json?.challenge;
  check(typeof challenge === 'string' && challenge.length > 0, `${what}: no challenge string in ${init.text.slice(0, 200)}`, { response: init });
  return { init, challenge, signed: await requireSigned(ctx, user, challenge) };
}

export async function directSepa(ctx: CheckContext, user: TestUser): Promise<HttpResponse> {
  return asUser(ctx, user, { op: 'createBankAccount', body: { account_type: 'Sepa' } });
}

/** Content-Type of a header map names JSON (parameters such as charset allowed). */
export function isJsonContentTypeOf(h: Record<string, string>): boolean {
  const v = Object.entries(h).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  return typeof v === 'string' && v.split(';')[0].trim().toLowerCase() === 'application/json';
}

// ---------------------------------------------------------------------------------------------
// Webhooks (section 6) and request bodies the spec does not show

/** Delivery path of a section 6 webhook, from the model (spec/openapi.yaml webhooks.<name>.post.x-webhook-path). */
export function webhookPath(ctx: CheckContext, name: string): string {
  const p = ctx.model.openapi?.webhooks?.[name]?.post?.['x-webhook-path'];
  if (typeof p !== 'string') throw new Error(`spec/openapi.yaml has no webhooks.${name}.post.x-webhook-path`);
  return p;
}

/** True when some string or number anywhere in `body` equals `value` (strings compared case-insensitively). */
export function mentionsDeep(body: unknown, value: string): boolean {
  if (!value) return false;
  const v = value.toLowerCase();
  const seen = new Set<unknown>();
  const walk = (o: unknown): boolean => {
    if (typeof o === 'string') return o.toLowerCase() === v;
    if (typeof o === 'number') return String(o) === value;
    if (o === null || typeof o !== 'object' || seen.has(o)) return false;
    seen.add(o);
    return (Array.isArray(o) ? o : Object.values(o)).some(walk);
  };
  return walk(body);
}

export const WEBHOOK_TIMEOUT_BOUNDS = { min: 1000, max: 600_000, settled: 20_000, unsettled: 90_000 } as const;

/**
 * How long to wait for a webhook the target emits on its own schedule: profile.webhook_timeout_ms, else
 * 20 s when the control API settled the event at once, else 5 minutes; always within 1 s..10 min.
 */
export function webhookTimeoutMs(ctx: CheckContext, settledByControl: boolean): number {
  const b = WEBHOOK_TIMEOUT_BOUNDS;
  const want = ctx.profile.webhook_timeout_ms ?? (settledByControl ? b.settled : b.unsettled);
  return Math.min(b.max, Math.max(b.min, want));
}

/**
 * The request body for an operation whose payload the spec does not show: the driver's defaults and the
 * values it took from earlier steps (`fromSteps`, e.g. estimation_id), with profile.request_templates[op]
 * merged over them. A template value of null removes the field; a string "{{name}}" is replaced by the
 * step value `name` (so a target that names a field differently can still receive it).
 */
export function requestBody(ctx: CheckContext, op: string, defaults: Record<string, unknown>, fromSteps: Record<string, unknown> = {}): Record<string, unknown> {
  const tpl = ctx.profile.request_templates?.[op] ?? {};
  const out: Record<string, unknown> = { ...defaults, ...fromSteps };
  const fill = (v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    const whole = /^\{\{(\w+)\}\}$/.exec(v);
    if (whole && Object.hasOwn(fromSteps, whole[1])) return fromSteps[whole[1]];
    return v.replace(/\{\{(\w+)\}\}/g, (m, name: string) => (Object.hasOwn(fromSteps, name) ? String(fromSteps[name]) : m));
  };
  for (const [k, v] of Object.entries(tpl)) {
    if (v === null) delete out[k];
    else out[k] = fill(v);
  }
  for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
  return out;
}

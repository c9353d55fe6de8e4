// Users (sections 2, 4, 5): registration through POST /api/v1/user or v2 with an S2S token, one shared
// user per target and client for read-only checks, user tokens, and requests sent as a user.

import { field } from '../../src/checks/body.ts';
import { checkStep, expectStep } from '../../src/checks/assert.ts';
import type { CheckContext, HttpRequest, HttpResponse } from '../../src/checks/types.ts';
import { userIdOf } from '../../src/client/credentials.ts';
import type { OperationId } from '../../src/model/types.ts';
import { headers, walletItems, opLabel } from './http.ts';
import { identityHeader, userHeaders } from './identity.ts';
import { rnd } from './random.ts';
import { profileClient, s2sHeaders } from './tokens.ts';

import type { TestUser } from './test-user.ts';

export type { TestUser };

export interface NewUser {
  client?: number;
  email?: string;
  address?: string;
  country?: string;
  version?: 'v1' | 'v2';
  /** Request body override (alias checks); default { email, country, user_address }. */
  body?: Record<string, unknown>;
}

/**
 * Where a user read's `field` disagrees with `want` (case-insensitive: addresses, emails and country
 * codes), as one line; undefined when it agrees, or when the answer leaves out a field spec/openapi.yaml
 * marks `x-checked-when-present` on that operation (model.whenPresent: e.g. email on user reads,
 * which section 4 does not list); null is a field left out (ENDPOINT-RESPONSE-SCHEMA reading null-when-optional).
 */
export function userFieldMismatch(ctx: CheckContext, op: OperationId, json: unknown, field: string, want: string): string | undefined {
  const got = (json as Record<string, unknown> | null | undefined)?.[field];
  if (got == null && ctx.model.whenPresent(op).includes(field)) return undefined;
  if (typeof got === 'string' && got.toLowerCase() === want.toLowerCase()) return undefined;
  return `${field} ${JSON.stringify(got)} (expected ${want})`;
}

/**
 * The user id in a create-user answer, read exactly as spec/openapi.yaml CreateUserResult accepts it
 * (section 4 says only "user id"): the preferred or deprecated name of the user-read id alias
 * (section 2), or the bare string.
 */
export function userIdFrom(ctx: Pick<CheckContext, 'model'>, json: unknown): string | undefined {
  return userIdOf(ctx.model, json);
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
  // The address goes under the preferred name of the registration alias (section 9.6: user_address).
  const addressField = ctx.model.aliasRule(opts.version === 'v2' ? 'ALIAS-USER-CREATE-WALLET-ADDRESS-V2' : 'ALIAS-USER-CREATE-WALLET-ADDRESS-V1').new;
  const body = opts.body ?? { email: user.email, country: user.country, [addressField]: user.address };
  const op = opts.version === 'v2' ? 'createUserV2' : 'createUserV1';
  const step = opLabel(ctx, op);
  const res = await createUserRaw(ctx, opts.version ?? 'v1', await s2sHeaders(ctx, i), body);
  expectStep(res, op, step);
  const id = userIdFrom(ctx, res.json);
  checkStep(id, op, `${step} answered without a user id: ${res.text.slice(0, 200)}`, res);
  return { id, ...user, client: i };
}

const sharedUsers = new Map<string, Promise<TestUser>>();

/** One user per target and client, created on first use and reused by read-only checks. */
export function sharedUser(ctx: CheckContext, i = 0): Promise<TestUser> {
  const c = profileClient(ctx, i);
  const key = `${ctx.profile.base_url}|${c.client_id}`;
  let p = sharedUsers.get(key);
  if (!p) {
    p = createUser(ctx, { client: i });
    sharedUsers.set(key, p);
    p.catch(() => sharedUsers.delete(key));
  }
  return p;
}

/** POST /api/v1/user/authorize (S2S form): the raw answer. */
export async function authorizeRaw(ctx: CheckContext, user: TestUser, extra: Record<string, string | undefined> = {}): Promise<HttpResponse> {
  const h = headers(await s2sHeaders(ctx, user.client), { [identityHeader(ctx, 'wallet')]: user.address }, extra);
  return ctx.http.send({ op: 'authorizeUser', headers: h });
}

/** A user-scoped token for `user` (S2S + X-User-Wallet + X-Chain-Id). */
export async function userToken(ctx: CheckContext, user: TestUser): Promise<string> {
  const step = opLabel(ctx, 'authorizeUser');
  const res = await authorizeRaw(ctx, user);
  expectStep(res, 'authorizeUser', step);
  const token = field(res.json, 'access_token');
  checkStep(typeof token === 'string' && token.length > 0, 'authorizeUser', `${step}: the answer carries no access_token`, res);
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
  expectStep(res, 'listWallets', opLabel(ctx, 'listWallets'));
  return walletItems(res.json).map((w) => field(w, 'wallet_address')).filter((a): a is string => typeof a === 'string');
}

/** How long a check polls GET /api/v1/wallets for a new user's first Smart Wallet. */
export const WALLET_PROVISION_WAIT_MS = 10_000;

/**
 * The user's Smart Wallets, polled until at least one is listed. Sections 1 and 2 say a user has one
 * or more Smart Wallets but not when the first is provisioned after registration: past the bound the
 * check is skipped with that reason, never failed.
 */
export async function requireSmartWallets(ctx: CheckContext, user: TestUser, boundMs = WALLET_PROVISION_WAIT_MS): Promise<string[]> {
  const end = Date.now() + boundMs;
  for (;;) {
    const res = await asUser(ctx, user, { op: 'listWallets' });
    expectStep(res, 'listWallets', opLabel(ctx, 'listWallets'));
    const items = walletItems(res.json);
    const wallets = items.map((w) => field(w, 'wallet_address')).filter((a): a is string => typeof a === 'string');
    if (wallets.length > 0) return wallets;
    // Listed, but with no wallet_address to use: provisioning is over, so polling on cannot help (the
    // shape of a listed wallet is what users.wallets.read judges).
    if (items.length > 0) ctx.skip(`${opLabel(ctx, 'listWallets')} listed ${items.length} wallet(s) for the user but none with a wallet_address; the Smart Wallet address this check needs is not known`);
    if (Date.now() >= end) ctx.skip(`${opLabel(ctx, 'listWallets')} listed no Smart Wallet for the user within ${boundMs / 1000} s of registration; the spec does not say when it is provisioned`);
    await new Promise((r) => setTimeout(r, 500));
    ctx.signal.throwIfAborted();
  }
}

// Section 5 authentication of a matched route. The mode of each operation comes from the model
// (x-auth, and whether the spec lists X-Chain-Id as a required header); the checks themselves are
// token-steps.ts (S2S and user tokens), identity.ts (identity headers) and idp.ts (provider tokens).

import type { Model, Operation } from '../../model/types.ts';
import { type AuthMode, type Caller, type Ctx, header } from '../http.ts';
import type { RefState, VerifiedToken } from '../state/index.ts';
import type { User } from '../state/store.ts';
import { identify, identityHeaders, requireChain } from './identity.ts';
import { idpCaller, isIdpForm } from './idp.ts';
import { decodeHeader } from './jwt.ts';
import { checkToken, judgeExpiry } from './token-steps.ts';

export { S2S_STEPS, USER_TOKEN_STEPS } from './token-steps.ts';
export { idpUser } from './idp.ts';
export { issueS2sToken, issueUserToken, USER_TOKEN_VALIDITY_SECONDS } from './tokens.ts';

/**
 * The route's authentication mode from the operation's `x-auth` (spec/openapi.yaml):
 * none; s2s-agnostic (+ X-Chain-Id when the spec lists it as required) -> s2s / s2s-chain;
 * s2s + user -> user (user token, or S2S + identity header); idp -> idp; s2s + idp -> authorize.
 */
export function authModeOf(op: Operation, model: Model): AuthMode {
  const a = new Set(op.auth);
  if (a.has('none')) return 'none';
  if (a.has('idp')) return a.has('s2s') ? 'authorize' : 'idp';
  if (a.has('user')) return 'user';
  if (a.has('s2s-agnostic') || a.has('s2s')) {
    const chain = model.auth.chain_header.toLowerCase();
    return op.parameters.some((p) => p.in === 'header' && p.required && p.name.toLowerCase() === chain) ? 's2s-chain' : 's2s';
  }
  throw new Error(`spec/openapi.yaml: ${op.operationId} has x-auth ${JSON.stringify(op.auth)}, which the reference does not serve`);
}

/**
 * Runs the route's authentication; sets ctx.caller (and ctx.user on user calls). Returns a promise only
 * for the identity-provider forms (JWKS); every other path stays synchronous (the hot path of load runs).
 */
export function authenticate(ctx: Ctx, st: RefState): Promise<void> | undefined {
  switch (ctx.route.auth) {
    case 'none':
      return undefined;
    case 'key':
      // A vendor key (not a section 5 pattern): absent or wrong, refused as invalid client credentials.
      if (!ctx.route.key || header(ctx, ctx.route.key.header) !== ctx.route.key.value) throw st.errors.rule('ERR-TOKEN-UNKNOWN-CLIENT');
      return undefined;
    case 's2s':
      ctx.caller = s2sCaller(ctx, st);
      return undefined;
    case 's2s-chain':
      ctx.caller = s2sCaller(ctx, st);
      requireChain(ctx, st);
      return undefined;
    case 'user':
      userCall(ctx, st);
      return undefined;
    case 'idp':
      return idpCaller(ctx, st).then((c) => {
        ctx.caller = c;
      });
    case 'authorize':
      if (isIdpForm(ctx, (t) => decodeHeader(t)?.alg)) {
        return idpCaller(ctx, st).then((c) => {
          ctx.caller = c;
        });
      }
      ctx.caller = s2sCaller(ctx, st);
      requireChain(ctx, st);
      ctx.user = identify(ctx, st, ctx.caller.company_id);
      return undefined;
  }
}

function s2sCaller(ctx: Ctx, st: RefState): NonNullable<Ctx['caller']> {
  const p = checkToken(ctx, st, ['s2s']).payload;
  return { kind: 's2s', company_id: p.company_id as string, client_id: p.azp as string };
}

/**
 * The headers a user call reads, as header() gives them, and what the call found with them. A user-token
 * call reads no identity header (with no fault point set), so only an S2S call keeps and compares them.
 */
interface UserCallOutcome {
  auth: string | undefined;
  chain: string | undefined;
  s2s: boolean;
  wallet: string | undefined;
  email: string | undefined;
  id: string | undefined;
  verified: VerifiedToken;
  caller: Caller;
  user: User;
}

/**
 * The last successful user call of each connection, kept only on a server with no fault point set.
 * A client repeats its headers on every request of a kept-alive connection. With the same headers,
 * every step but expiry decides the same way: the secrets and a token's payload are fixed, and users
 * are never removed nor re-keyed (their id, email and addresses never change). So a repeat judges
 * expiry alone. Fault points make steps depend on the method and the operation, so a faulty server
 * takes every step on every call; only successes are kept, since a user missing now may exist later.
 */
const LAST_USER_CALL = new WeakMap<object, UserCallOutcome>();

/** A user call: user token + X-Chain-Id, or S2S + X-Chain-Id + exactly one identity header. */
function userCall(ctx: Ctx, st: RefState): void {
  if (!st.faultFree) {
    judgeUserCall(ctx, st);
    return;
  }
  const n = identityHeaders(st);
  const socket = ctx.req.socket;
  const auth = header(ctx, 'authorization');
  const chain = header(ctx, n.chainLower);
  const last = LAST_USER_CALL.get(socket);
  if (last !== undefined && last.auth === auth && last.chain === chain
    && (!last.s2s || (last.id === header(ctx, n.id) && last.email === header(ctx, n.email) && last.wallet === header(ctx, n.wallet)))) {
    judgeExpiry(st, last.verified);
    ctx.caller = last.caller;
    ctx.user = last.user;
    return;
  }
  const verified = judgeUserCall(ctx, st);
  const s2s = verified.kind === 's2s';
  LAST_USER_CALL.set(socket, {
    auth,
    chain,
    s2s,
    wallet: s2s ? header(ctx, n.wallet) : undefined,
    email: s2s ? header(ctx, n.email) : undefined,
    id: s2s ? header(ctx, n.id) : undefined,
    verified,
    // Shared by every repeat of the call: frozen, so a handler that wrote to it would fail loudly.
    caller: Object.freeze(ctx.caller!),
    user: ctx.user!,
  });
}

/** Every step of a user call, in order; returns the verified token. */
function judgeUserCall(ctx: Ctx, st: RefState): VerifiedToken {
  const v = checkToken(ctx, st, ['s2s', 'user']);
  const p = v.payload;
  requireChain(ctx, st, v.kind === 'user' ? 'user' : 's2s');
  if (v.kind === 's2s') {
    ctx.caller = { kind: 's2s', company_id: p.company_id as string, client_id: p.azp as string };
    ctx.user = identify(ctx, st, ctx.caller.company_id);
    return v;
  }
  const u = typeof p.user_id === 'string' ? st.store.users.get(p.user_id) : undefined;
  if (!u || (u.company_id !== p.company_id && !st.fault('identity.cross-company'))) throw st.errors.rule('ERR-S2S-USER-NOT-FOUND');
  ctx.caller = { kind: 'user', company_id: u.company_id };
  ctx.user = u;
  // The precedence fault: an identity header next to a user token picks the user (section 5 step 4 says
  // user-token calls need no identity header; the token's own user is the only one it may act as).
  if (st.fault('user-token.identity-header-wins') || (st.fault('user-token.identity-header-wins-writes') && ctx.method.toUpperCase() !== 'GET')) {
    const names = identityHeaders(st);
    if ([names.wallet, names.email, names.id].some((h) => header(ctx, h) !== undefined)) ctx.user = identify(ctx, st, u.company_id);
  }
  return v;
}

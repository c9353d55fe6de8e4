// Bearer-token validation as data: the order of the section 7 rows is a list of step names
// (S2S_STEPS, USER_TOKEN_STEPS), and each step is one small function that throws its row. The order
// is the reference's reading of the tables (top to bottom); a change of order is a one-line edit here.

import type { ErrorRuleId } from '../../model/types.ts';
import { ApiError } from '../errors.ts';
import type { Ctx } from '../http.ts';
import { header } from '../http.ts';
import type { RefState, VerifiedToken } from '../state/index.ts';
import { BEARER_RE, verifyHs256 } from './jwt.ts';

/** Section 7 "Requests using an S2S token", in row order. */
export const S2S_STEPS = ['bearer', 'signature', 'expiry', 'azp', 'companyId'] as const;
/** Section 7 "Requests using a user token", in row order (format and signature rows shared with S2S). */
export const USER_TOKEN_STEPS = ['bearer', 'signature', 'expiry', 'userId', 'email', 'address'] as const;
export type TokenStep = (typeof S2S_STEPS)[number] | (typeof USER_TOKEN_STEPS)[number];

/** One token being checked; steps fill it in. */
export interface TokenRun {
  ctx: Ctx;
  st: RefState;
  /** Which kinds the route accepts; the other kind answers the signature row (it is not that kind of token). */
  accept: ReadonlyArray<VerifiedToken['kind']>;
  /** The Authorization header value (the verified-token cache key). */
  auth?: string;
  token?: string;
  verified?: VerifiedToken;
}

const TOKEN_CACHE_MAX = 10_000;

/**
 * Signature check against both secrets. A verified token is cached under its whole Authorization header
 * value (`Bearer <token>`): a header seen before skips the format regex and the HMAC (the secrets never
 * change in a server's life); claims and expiry are still checked on every call.
 */
function verify(st: RefState, token: string, auth: string): VerifiedToken | undefined {
  const hit = st.tokenCache.get(auth);
  if (hit) return hit;
  let v: VerifiedToken | undefined;
  const s2s = verifyHs256(token, st.secrets.s2sKey);
  if (s2s) v = { kind: 's2s', payload: s2s };
  else {
    const user = verifyHs256(token, st.secrets.userKey);
    if (user) v = { kind: 'user', payload: user };
    else if (st.fault('s2s.skip-signature')) {
      const p = verifyHs256(token, st.secrets.s2sKey, true);
      if (p) v = { kind: 'user_id' in p ? 'user' : 's2s', payload: p };
    }
  }
  if (!v) return undefined;
  if (st.tokenCache.size >= TOKEN_CACHE_MAX) st.tokenCache.delete(st.tokenCache.keys().next().value as string);
  st.tokenCache.set(auth, v);
  return v;
}

/**
 * The last verified Authorization value of each connection. A client sends the same header on every
 * request of a kept-alive connection: comparing it with the last one costs less than hashing a fresh
 * 300-character string for the cache lookup. Only values the cache holds are kept here (the secrets
 * never change, so a verification never goes stale).
 */
const LAST_ON_SOCKET = new WeakMap<object, { auth: string; verified: VerifiedToken }>();

function cached(st: RefState, socket: object, auth: string): VerifiedToken | undefined {
  const last = LAST_ON_SOCKET.get(socket);
  if (last !== undefined && last.auth === auth) return last.verified;
  const hit = st.tokenCache.get(auth);
  if (hit) LAST_ON_SOCKET.set(socket, { auth, verified: hit });
  return hit;
}

/** Fault point s2s.short-validity: tokens older than this are refused. */
const SHORT_VALIDITY_S = 24 * 3600;

function expired(st: RefState, payload: Record<string, unknown>): boolean {
  if (st.fault('s2s.skip-expiry')) return false;
  const exp = payload.exp;
  // The fault: the server's own notion of validity (24 h) is shorter than the exp it issued.
  if (st.fault('s2s.short-validity') && typeof payload.iat === 'number' && payload.iat + SHORT_VALIDITY_S <= st.clock.nowSec()) return true;
  return typeof exp !== 'number' || exp <= st.clock.nowSec();
}

/** The expiry row of the token's kind: the one step that reads the clock. */
export function judgeExpiry(st: RefState, v: VerifiedToken): void {
  if (!expired(st, v.payload)) return;
  if (v.kind === 'user') throw st.errors.rule('ERR-USER-TOKEN-EXPIRED');
  if (st.fault('s2s.expired-as-400')) throw st.errors.invalid('authorization');
  throw st.errors.rule('ERR-S2S-TOKEN-EXPIRED');
}

const present = (v: unknown) => typeof v === 'string' && v !== '';

function claim(run: TokenRun, name: string, row: ErrorRuleId): void {
  if (!present(run.verified!.payload[name])) throw run.st.errors.rule(row);
}

const STEP: Record<TokenStep, (run: TokenRun) => void> = {
  bearer(run) {
    const auth = header(run.ctx, 'authorization');
    if (auth === undefined) throw run.st.errors.rule('ERR-S2S-AUTH-HEADER-MISSING');
    const m = BEARER_RE.exec(auth);
    if (!m) throw run.st.errors.rule('ERR-S2S-BEARER-FORMAT');
    run.auth = auth;
    run.token = m[1];
  },
  signature(run) {
    const v = verify(run.st, run.token!, run.auth!);
    if (!v || !run.accept.includes(v.kind)) throw run.st.errors.rule('ERR-S2S-SIGNATURE-INVALID');
    run.verified = v;
  },
  expiry: (run) => judgeExpiry(run.st, run.verified!),
  azp: (run) => claim(run, 'azp', 'ERR-S2S-AZP-MISSING'),
  companyId: (run) => claim(run, 'company_id', 'ERR-S2S-COMPANY-ID-MISSING'),
  userId: (run) => run.st.fault('user-token.skip-claims') || claim(run, 'user_id', 'ERR-USER-TOKEN-USER-ID-MISSING'),
  email: (run) => run.st.fault('user-token.skip-claims') || claim(run, 'email', 'ERR-USER-TOKEN-EMAIL-MISSING'),
  address: (run) => run.st.fault('user-token.skip-claims') || claim(run, 'user_address', 'ERR-USER-TOKEN-ADDRESS-MISSING'),
};

/** Runs `steps` in order on `run` (each throws its section 7 row). */
export function runSteps(run: TokenRun, steps: readonly TokenStep[]): TokenRun {
  for (const s of steps) STEP[s](run);
  return run;
}

/** The shared format and signature steps (they decide the kind), and each kind's remaining steps, resolved once. */
const SHARED_STEPS: readonly TokenStep[] = ['bearer', 'signature'];
const S2S_REST = S2S_STEPS.filter((s) => !SHARED_STEPS.includes(s));
const USER_REST = USER_TOKEN_STEPS.filter((s) => !SHARED_STEPS.includes(s));
/** The rows that read the clock: every other remaining row judges the same payload the same way each time. */
const TIMED: readonly TokenStep[] = ['expiry'];
const CLAIMS = { s2s: S2S_REST.filter((s) => !TIMED.includes(s)), user: USER_REST.filter((s) => !TIMED.includes(s)) };

/** Whether every claim row of the token's kind passes, judged on its first use and kept on the token. */
function claimsHold(ctx: Ctx, st: RefState, v: VerifiedToken): boolean {
  if (v.claimsHold === undefined) {
    try {
      runSteps({ ctx, st, accept: [v.kind], verified: v }, CLAIMS[v.kind]);
      v.claimsHold = true;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      v.claimsHold = false;
    }
  }
  return v.claimsHold;
}

/**
 * The bearer token of a call, checked through the rows of its kind: the shared format and signature
 * steps first (they decide the kind), then the remaining steps of that kind's table.
 */
export function checkToken(ctx: Ctx, st: RefState, accept: TokenRun['accept']): VerifiedToken {
  const auth = header(ctx, 'authorization');
  const hit = auth === undefined ? undefined : cached(st, ctx.req.socket, auth);
  let run: TokenRun;
  if (hit) {
    // This exact header passed the format and signature steps before: only the kind is judged again.
    if (!accept.includes(hit.kind)) throw st.errors.rule('ERR-S2S-SIGNATURE-INVALID');
    // With every claim row passing, the rows' order cannot matter: expiry alone decides, on every call.
    if (claimsHold(ctx, st, hit)) {
      judgeExpiry(st, hit);
      return hit;
    }
    run = { ctx, st, accept, auth, verified: hit };
  } else run = runSteps({ ctx, st, accept }, SHARED_STEPS);
  return runSteps(run, run.verified!.kind === 's2s' ? S2S_REST : USER_REST).verified!;
}

// Token caching and the refresh buffer (sections 5 and 8), from the token calls and the calls that
// presented an S2S token. Calls are counted, never distinct tokens: two tokens minted in the same
// second can be byte-identical. Buffers are the plan's scaled ones (the spec's 5 minutes).

import type { Exchange } from '../types.ts';
import { cite, notExercised, sentAtLeast, seqs, specValue, type Judge, type JudgeContext, type JudgeGroup } from './context.ts';

const isTokenCall = (e: Exchange) => e.operationId === 'createToken';

interface Issued {
  seq: number;
  clientId?: string;
  expiresAtMs: number;
  n?: number;
}

/** S2S tokens the client received, with the expires_at the audit set. */
function issued(ctx: JudgeContext): Issued[] {
  return ctx.exchanges.filter((e) => isTokenCall(e) && e.status !== undefined && e.status >= 200 && e.status < 300).flatMap((e) => {
    const body = e.responseBody as { expires_at?: unknown; access_token?: unknown } | undefined;
    // The record names the token by its number ("<s2s token #3>"), never by its value.
    const n = typeof body?.access_token === 'string' ? /#(\d+)>$/.exec(body.access_token)?.[1] : undefined;
    const at = body?.expires_at;
    return typeof at === 'number' ? [{ seq: e.seq, ...(e.clientId ? { clientId: e.clientId } : {}), expiresAtMs: at * 1000, ...(n ? { n: Number(n) } : {}) }] : [];
  });
}

/** A token call is a retry when the token call before it met a 429 or was abandoned. */
function freshTokenCalls(ctx: JudgeContext): Exchange[] {
  const calls = ctx.exchanges.filter(isTokenCall);
  return calls.filter((e, i) => i === 0 || !(calls[i - 1].injected?.kind === 'rate-limit' || calls[i - 1].abandonedMs !== undefined));
}

export const tokenCache: Judge = (ctx) => {
  const using = ctx.exchanges.filter((e) => e.token?.kind === 's2s');
  const calls = freshTokenCalls(ctx);
  if (using.length < 2) return notExercised(`the client made ${using.length} call(s) with an S2S token; caching shows over several`);
  const buffer = ctx.plan.scale.refresh_buffer_seconds * 1000;
  const tokens = issued(ctx);
  // A token that was refused as expired no longer counts as cached.
  const refused = new Set(ctx.exchanges.filter((e) => e.injected?.kind === 'expired' || e.status === 401).map((e) => e.token?.n));
  const premature = freshTokenCalls(ctx).filter((call) => tokens.some((t) => t.seq < call.seq && t.clientId === call.clientId
    && t.expiresAtMs - call.startMs > 2 * buffer && !(t.n !== undefined && refused.has(t.n))));
  const limit = Math.max(1, Math.floor(using.length / 10));
  const counts = `${calls.length} token call(s) (retries after a 429 not counted) for ${using.length} call(s) that used an S2S token`;
  if (premature.length <= limit) return { status: 'pass', message: `${counts}; ${premature.length} came while a cached token had more than twice the ${ctx.plan.scale.refresh_buffer_seconds} s buffer to live`, exchanges: seqs(calls) };
  return {
    status: 'fail',
    message: `${counts}: ${premature.length} token calls (${cite(seqs(premature))}) came while a token of the same client still had more than ${(2 * buffer) / 1000} s to live (twice the ${ctx.plan.scale.refresh_buffer_seconds} s buffer); the token is to be cached`,
    exchanges: seqs(premature),
  };
};

/**
 * The first attempt `ex` retries with the same S2S token: walking back while the call before it (same
 * method and path) was met by a 429 or a stall, or abandoned, and presented the same token.
 */
function firstAttempt(ctx: JudgeContext, ex: Exchange): Exchange {
  let at = ex;
  for (let i = ctx.exchanges.indexOf(ex) - 1; i >= 0; i--) {
    const e = ctx.exchanges[i];
    if (e.method !== at.method || e.path !== at.path) continue;
    const retried = e.injected?.kind === 'rate-limit' || e.injected?.kind === 'stall' || e.abandonedMs !== undefined;
    if (!retried || e.token?.kind !== 's2s' || e.token.n !== at.token?.n) break;
    at = e;
  }
  return at;
}

export const refreshBuffer: Judge = (ctx) => {
  const late = ctx.exchanges.filter((e) => e.injected?.kind === 'expired');
  const tokens = issued(ctx);
  if (late.length > 0) {
    return {
      status: 'fail',
      message: `${late.length} call(s) (${cite(seqs(late))}) presented an S2S token after its expires_at and got the section 7 expired row; the token is to be renewed about ${ctx.plan.scale.refresh_buffer_seconds} s (scaled from ${specValue(ctx, 'token_refresh_buffer')}) before expiry`,
      exchanges: seqs(late),
    };
  }
  const buffer = ctx.plan.scale.refresh_buffer_seconds * 1000;
  // "About" the buffer: a token still presented in the last half of it was not renewed at the buffer.
  // A call recorded in or right after a stall of the audit's own may have been sent when the stall began.
  // A retry that presents the token its first attempt presented is judged when that attempt was sent
  // (the retry's wait is the audit's 429 or stall, not the client's choice of token).
  const lateUse = ctx.exchanges.filter((e) => e.token?.kind === 's2s' && e.token.expiresAtSec !== undefined && sentAtLeast(ctx, firstAttempt(ctx, e)) > e.token.expiresAtSec * 1000 - buffer / 2);
  if (lateUse.length > 0) {
    return {
      status: 'fail',
      message: `${lateUse.length} call(s) (${cite(seqs(lateUse))}) presented an S2S token in the last ${buffer / 2000} s before its expires_at (half the ${ctx.plan.scale.refresh_buffer_seconds} s buffer, scaled from ${specValue(ctx, 'token_refresh_buffer')}): it was not renewed about the buffer before expiry`,
      exchanges: seqs(lateUse),
    };
  }
  const lastCall = ctx.exchanges.reduce((m, e) => Math.max(m, e.startMs), 0);
  // Judged once the client kept calling into the last half of a token's buffer, where a token not
  // renewed would show: a client that stopped before cannot be told from one that never renews.
  const reached = tokens.filter((t) => lastCall >= t.expiresAtMs - buffer / 2);
  if (reached.length === 0) return notExercised(`no S2S token reached the last half of its ${ctx.plan.scale.refresh_buffer_seconds} s refresh window while the client was still calling (run the client longer than one token lifetime)`);
  const renewals = reached.flatMap((t) => {
    const next = ctx.exchanges.find((e) => isTokenCall(e) && e.seq > t.seq && e.clientId === t.clientId);
    return next ? [`renewed ${((t.expiresAtMs - next.startMs) / 1000).toFixed(1)} s before expires_at (#${next.seq})`] : [];
  });
  return {
    status: 'pass',
    message: `${reached.length} token(s) reached the ${ctx.plan.scale.refresh_buffer_seconds} s refresh window; no call presented an expired token${renewals.length ? `; ${renewals.join(', ')}` : ''}`,
    exchanges: reached.map((t) => t.seq),
  };
};

/** The client rules this file judges, by id (index.ts joins every file's group into JUDGES). */
export const TOKEN_JUDGES = {
  'CLIENT-TOKEN-CACHE': tokenCache,
  'CLIENT-TOKEN-REFRESH-BUFFER': refreshBuffer,
} satisfies JudgeGroup;

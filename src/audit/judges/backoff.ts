// Backoff after 429 (section 8) and Retry-After (RFC 9110). Judged over sequences: a burst of
// consecutive 429s the plan imposed, and the waits between each 429 and the client's next attempt.
// One wait says nothing (full jitter makes a near-zero wait legitimate). A scheduling stall on a loaded
// host only lengthens a wait, never shortens it; the judge is built on that:
// - where a burst started is the shortest of its first three waits (a stall on one or two of them does
//   not move it);
// - a later wait (the 4th on) shows growth when it reaches factor x that start + min_growth_ms, where
//   min_growth_ms is the longest stall the plan tolerates: a client that does not grow its waits (no
//   backoff, a fixed delay) cannot reach it through stalls shorter than that, however many there are
//   (a fixed delay d: start >= d, a later wait <= d + stall < factor x d + min_growth_ms, factor >= 1);
// - a cap is normal client practice: a later wait held at the client's cap still counts, the judge asks
//   the waits to reach the bound, not to keep growing to the end of the burst;
// - one burst that grows passes the rule (full jitter may leave one burst under the bound by chance);
// - a later wait counts only up to the earliest its next attempt may have been sent: a stall of the
//   audit's own event loop (stalls.ts) delays the record of a request, so a wait that ends in one is
//   cut to where the stall began. Stalls the audit saw never count as growth, whatever their length;
//   the min_growth_ms tolerance is left for stalls it cannot see (a client's own process). The start
//   stays as recorded: cut to where a stall began, it would let a fixed delay over the tolerance pass.
// backoff.sim.test.ts measures the false-failure and false-pass rates on seeded client models.

import type { Exchange } from '../types.ts';
import { cite, ms, notExercised, sentAtLeast, type Judge, type JudgeContext, type JudgeGroup } from './context.ts';

/**
 * The attempt that followed `ex`: the next call of the same operation (or, unrouted, the same path).
 * Whoever sends it: a library's retry and an application asking for a token again on its next step are
 * one client's next attempt, and are judged alike.
 */
function nextAttempt(all: readonly Exchange[], ex: Exchange): Exchange | undefined {
  return all.find((e) => e.seq > ex.seq && e.method === ex.method && (ex.operationId ? e.operationId === ex.operationId : e.path === ex.path));
}

interface Burst {
  id: string;
  /** As recorded: from a 429's answer to the next attempt's arrival. */
  waits: number[];
  /** The same waits up to the earliest each next attempt may have been sent (sentAtLeast). */
  own: number[];
  seqs: number[];
}

function bursts(ctx: JudgeContext, prefix: string): Burst[] {
  const byId = new Map<string, Exchange[]>();
  for (const e of ctx.exchanges) {
    if (e.injected?.kind === 'rate-limit' && e.injected.burst?.startsWith(prefix)) byId.set(e.injected.burst, [...(byId.get(e.injected.burst) ?? []), e]);
  }
  return [...byId].map(([id, list]) => {
    const waits: number[] = [];
    const own: number[] = [];
    const used = list.map((e) => e.seq);
    for (const e of list) {
      const next = nextAttempt(ctx.exchanges, e);
      // A wait after a Retry-After is the header's, not the client's backoff (CLIENT-RETRY-AFTER judges it).
      if (!next || e.endMs === undefined || (e.injected?.kind === 'rate-limit' && e.injected.retryAfter !== undefined)) break;
      waits.push(next.startMs - e.endMs);
      own.push(Math.max(0, Math.min(next.startMs, sentAtLeast(ctx, next)) - e.endMs));
      if (!used.includes(next.seq)) used.push(next.seq);
    }
    return { id, waits, own, seqs: used };
  });
}

/** Waits that set where a burst started; the waits after them are judged against it. */
const EARLY_WAITS = 3;

export const tokenBackoff: Judge = (ctx) => {
  const all = bursts(ctx, 'token-');
  if (all.length === 0) return notExercised('the plan imposed no burst of 429s on the token endpoint, or the client never called it');
  const complete = all.filter((b) => b.waits.length > EARLY_WAITS);
  const wait = (b: Burst, i: number) => (b.own[i] < b.waits[i] ? `${ms(b.waits[i])} (${ms(b.waits[i] - b.own[i])} of it an audit stall)` : ms(b.waits[i]));
  const shown = all.map((b) => `${b.id}: ${b.waits.length ? b.waits.map((_, i) => wait(b, i)).join(', ') : 'no retry'}`).join('; ');
  const exchanges = all.flatMap((b) => b.seqs);
  if (complete.length === 0) {
    return { status: 'not-exercised', message: `no burst of 429s was retried more than ${EARLY_WAITS} times (${shown}); growth needs the first ${EARLY_WAITS} waits and a later one`, exchanges };
  }
  const { factor, min_growth_ms } = ctx.plan.backoff;
  const judged = complete.map((b) => {
    const start = Math.min(...b.waits.slice(0, EARLY_WAITS));
    const bound = factor * start + min_growth_ms;
    const reached = b.own.slice(EARLY_WAITS).filter((w) => w >= bound);
    return { b, start, bound, reached };
  });
  const grown = judged.filter((j) => j.reached.length > 0);
  const each = judged.map((j) => `${j.b.id}: shortest of the first ${EARLY_WAITS} waits ${ms(j.start)}, bound ${factor} x ${ms(j.start)} + ${ms(min_growth_ms)} = ${ms(j.bound)}, `
    + (j.reached.length ? `reached by ${j.reached.map(ms).join(', ')}` : `longest later wait ${ms(Math.max(...j.b.own.slice(EARLY_WAITS)))}`)).join('; ');
  const verdict = `waits after consecutive 429s (${shown})`;
  const rule = `exponential backoff needs a wait after the first ${EARLY_WAITS} of a burst to reach ${factor} x the shortest of them + ${ms(min_growth_ms)} (the longest scheduling stall tolerated), in at least one burst`;
  return grown.length > 0
    ? { status: 'pass', message: `${verdict}; the waits grow in ${grown.map((j) => j.b.id).join(', ')}: ${rule} (${each})`, exchanges }
    : { status: 'fail', message: `${verdict}; ${rule}, and no burst did (${each})`, exchanges };
};

/** Tolerance for a wait measured between two listeners' clocks on one host. */
const SLACK_MS = 50;

export const retryAfter: Judge = (ctx) => {
  const marked = ctx.exchanges.filter((e) => e.injected?.kind === 'rate-limit' && e.injected.retryAfter !== undefined);
  const judged: { ex: Exchange; next: Exchange; wait: number; want: number }[] = [];
  for (const ex of marked) {
    const next = nextAttempt(ctx.exchanges, ex);
    if (!next || ex.endMs === undefined || ex.injected?.kind !== 'rate-limit') continue;
    judged.push({ ex, next, wait: next.startMs - ex.endMs, want: (ex.injected.retryAfter ?? 0) * 1000 });
  }
  if (judged.length === 0) return notExercised(marked.length ? `the client did not retry the 429s carrying Retry-After (${cite(marked.map((e) => e.seq))})` : 'no 429 with Retry-After met a call of the client');
  const exchanges = judged.flatMap((j) => [j.ex.seq, j.next.seq]);
  const early = judged.filter((j) => j.wait < j.want - SLACK_MS);
  const text = judged.map((j) => `#${j.ex.seq} Retry-After ${j.want / 1000} s, next attempt #${j.next.seq} after ${ms(j.wait)}`).join('; ');
  return early.length === 0
    ? { status: 'pass', message: `Retry-After honoured: ${text}`, exchanges }
    : { status: 'fail', message: `retried before Retry-After elapsed: ${text}`, exchanges };
};

/** The client rules this file judges, by id (index.ts joins every file's group into JUDGES). */
export const BACKOFF_JUDGES = {
  'CLIENT-TOKEN-BACKOFF': tokenBackoff,
  'CLIENT-RETRY-AFTER': retryAfter,
} satisfies JudgeGroup;

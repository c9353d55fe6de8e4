// Backoff after 429 (section 8) and Retry-After (RFC 9110). Judged over sequences: a burst of
// consecutive 429s the plan imposed, and the waits between each 429 and the client's next attempt.
// One wait says nothing (full jitter makes a near-zero wait legitimate); the longest of the last two
// waits of a burst must outgrow its first wait by the plan's factor and margin, in at least one burst.

import type { Exchange } from '../types.ts';
import { cite, ms, notExercised, type Judge, type JudgeContext } from './context.ts';

/** The attempt that followed `ex`: the next call of the same operation (or, unrouted, the same path). */
function nextAttempt(all: readonly Exchange[], ex: Exchange): Exchange | undefined {
  return all.find((e) => e.seq > ex.seq && e.method === ex.method && (ex.operationId ? e.operationId === ex.operationId : e.path === ex.path));
}

interface Burst {
  id: string;
  waits: number[];
  seqs: number[];
}

function bursts(ctx: JudgeContext, prefix: string): Burst[] {
  const byId = new Map<string, Exchange[]>();
  for (const e of ctx.exchanges) {
    if (e.injected?.kind === 'rate-limit' && e.injected.burst?.startsWith(prefix)) byId.set(e.injected.burst, [...(byId.get(e.injected.burst) ?? []), e]);
  }
  return [...byId].map(([id, list]) => {
    const waits: number[] = [];
    const used = list.map((e) => e.seq);
    for (const e of list) {
      const next = nextAttempt(ctx.exchanges, e);
      if (!next || e.endMs === undefined) break;
      waits.push(next.startMs - e.endMs);
      if (!used.includes(next.seq)) used.push(next.seq);
    }
    return { id, waits, seqs: used };
  });
}

export const tokenBackoff: Judge = (ctx) => {
  const all = bursts(ctx, 'token-');
  if (all.length === 0) return notExercised('the plan imposed no burst of 429s on the token endpoint, or the client never called it');
  const complete = all.filter((b) => b.waits.length >= 3);
  const shown = all.map((b) => `${b.id}: ${b.waits.length ? b.waits.map(ms).join(', ') : 'no retry'}`).join('; ');
  const exchanges = all.flatMap((b) => b.seqs);
  if (complete.length === 0) return { status: 'not-exercised', message: `no burst of 429s was retried three times or more (${shown}); growth needs a sequence`, exchanges };
  const { factor, min_growth_ms } = ctx.plan.backoff;
  // Each burst is judged on its own: a wait stretched by a scheduling stall in one burst must not set the
  // bar for the others, and full jitter may hide the growth of one burst by chance, never of all of them.
  const judged = complete.map((b) => {
    const early = b.waits[0];
    const late = Math.max(b.waits[b.waits.length - 1], b.waits[b.waits.length - 2]);
    return { b, early, late, bound: factor * early + min_growth_ms };
  });
  const grown = judged.filter((j) => j.late >= j.bound);
  const each = judged.map((j) => `${j.b.id}: late ${ms(j.late)} against ${factor} x ${ms(j.early)} + ${ms(min_growth_ms)} = ${ms(j.bound)}`).join('; ');
  const verdict = `waits after consecutive 429s (${shown})`;
  return grown.length > 0
    ? { status: 'pass', message: `${verdict}; the waits grow in ${grown.map((j) => j.b.id).join(', ')} (${each})`, exchanges }
    : { status: 'fail', message: `${verdict}; exponential backoff needs the longest of the last two waits of a burst to reach ${factor} x its first wait + ${ms(min_growth_ms)}, and no burst did (${each})`, exchanges };
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

// The request timeout (section 8, 30 s recommended; the plan's scaled value here), judged from when
// the client abandons a request the audit stalls: its socket closes, or a new attempt arrives.

import { sentNoEarlierThan } from '../stalls.ts';
import { ms, notExercised, sentAtLeast, specValue, type Judge, type JudgeGroup } from './context.ts';

/** "About" the timeout: from half of it to half again, plus a scheduling margin for a loaded host. */
const LOW = 0.5;
const HIGH = 1.5;
const MARGIN_MS = 250;

export const requestTimeout: Judge = (ctx) => {
  const stalled = ctx.exchanges.filter((e) => e.injected?.kind === 'stall');
  if (stalled.length === 0) return notExercised('no call of the client met the stall (the plan stalls one of the first GET calls)');
  const t = ctx.plan.scale.request_timeout_seconds * 1000;
  const results = stalled.map((e) => {
    const retry = ctx.exchanges.find((x) => x.seq > e.seq && x.method === e.method && x.path === e.path);
    const gaveUp = Math.min(e.abandonedMs ?? Infinity, retry?.startMs ?? Infinity) - e.startMs;
    // Too late only by when the client gave up at the earliest: a hang-up or a new attempt recorded in or
    // right after a stall of the audit's own event loop may have come when the stall began.
    const atLeast = Math.min(e.abandonedMs === undefined ? Infinity : sentNoEarlierThan(ctx.stalls, e.abandonedMs), retry ? sentAtLeast(ctx, retry) : Infinity) - e.startMs;
    const stallMs = e.injected?.kind === 'stall' ? e.injected.ms : 0;
    return { e, gaveUp: gaveUp < stallMs ? gaveUp : undefined, atLeast };
  });
  const exchanges = results.map((r) => r.e.seq);
  const bad = results.filter((r) => r.gaveUp === undefined || r.gaveUp < LOW * t || Math.min(r.gaveUp, r.atLeast) > HIGH * t + MARGIN_MS);
  const text = results.map((r) => (r.gaveUp === undefined ? `#${r.e.seq} still waiting when the audit answered after ${ms(r.e.injected?.kind === 'stall' ? r.e.injected.ms : 0)}` : `#${r.e.seq} abandoned after ${ms(r.gaveUp)}`)).join('; ');
  return bad.length === 0
    ? { status: 'pass', message: `${text} (timeout about ${ms(t)})`, exchanges }
    : { status: 'fail', message: `${text}; the client is to time out about ${ms(t)} (scaled from ${specValue(ctx, 'request_timeout')}) after sending`, exchanges };
};

/** The client rules this file judges, by id (index.ts joins every file's group into JUDGES). */
export const TIMEOUT_JUDGES = {
  'CLIENT-REQUEST-TIMEOUT': requestTimeout,
} satisfies JudgeGroup;

// The per-check time limit follows the target's latency: time spent waiting on answers beyond a fast
// answer does not count against the check. A server answering every call in 1.5 s (well inside the
// 30 s section 8 budget) must not make a 100-request check exceed a fixed 120 s limit, while a check
// that loops on its own still ends at the base limit. Bounded: at most TIME_LIMIT.maxFactor x base.

import { FAST_ANSWER_MS } from '../client/index.ts';

export const TIME_LIMIT = {
  /** A call answered within this is "fast": no extension for it (the client sums the excess per answer). */
  fastMs: FAST_ANSWER_MS,
  maxFactor: 5,
} as const;

/**
 * Milliseconds a check may run, given the base limit and its slow waiting so far (CheckHttpClient.slowMs:
 * per answer, the time past a fast answer). Summed per answer, not as total waiting minus a fast share
 * per request: a check of 200 fast calls and 25 two-second ones must get the 25 x 1.9 s, not lose a
 * third of it to the fast calls' unused allowance (a false CHECK_TIMEOUT seen under benign latency).
 */
export function allowedCheckMs(baseMs: number, slowMs: number): number {
  return baseMs + Math.min(Math.max(0, slowMs), baseMs * (TIME_LIMIT.maxFactor - 1));
}

// The per-check time limit follows the target's latency: time spent waiting on answers beyond a fast
// answer does not count against the check. A server answering every call in 1.5 s (well inside the
// 30 s section 8 budget) must not make a 100-request check exceed a fixed 120 s limit, while a check
// that loops on its own still ends at the base limit. Bounded: at most TIME_LIMIT.maxFactor x base.

export const TIME_LIMIT = {
  /** A call answered within this is "fast": no extension for it. */
  fastMs: 100,
  maxFactor: 5,
} as const;

/** Milliseconds a check may run, given the base limit and the requests it made so far. */
export function allowedCheckMs(baseMs: number, waitedMs: number, requests: number): number {
  const slow = Math.max(0, waitedMs - requests * TIME_LIMIT.fastMs);
  return baseMs + Math.min(slow, baseMs * (TIME_LIMIT.maxFactor - 1));
}

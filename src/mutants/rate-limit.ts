// The selftest's token-endpoint limit (section 8 shows no numbers: the reference's own choice, published
// in its profile), shared by the selftest runs and the variants that need a longer window of it.

import type { RateLimitOptions } from '../reference/index.ts';

/**
 * Token-endpoint limit for every run but those about the limit itself (realRateLimit): a short
 * window makes the rate-limit check's probe and its recovery take a second or two instead of
 * waiting out the reference's 10 s window. Per IP low enough that a few probe batches (20 each)
 * reach it; per client above 2 x 60 + 1 so limits.token.rate-limit-split can tell the two apart.
 */
export const SELFTEST_RATE_LIMIT = { perIp: 60, perClient: 150, windowMs: 2000 } as const satisfies RateLimitOptions;

/**
 * The same counts over a window longer than a variant's added latency: a probe burst must fit one
 * window (batches of 20 answered in seconds reach 60 only over several seconds), so under seconds of
 * latency the rate-limit checks reach the limit and recover instead of warning it was not reached.
 */
export const selftestRateLimitOver = (windowMs: number): RateLimitOptions => ({ ...SELFTEST_RATE_LIMIT, windowMs });

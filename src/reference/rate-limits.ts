// The reference's rate limits, in a module of their own: a run names the embedded run's limits before
// it knows whether it starts the reference, and importing them must not load the reference itself.
import type { RateLimitOptions } from './types.ts';

/**
 * Section 8 gives no numbers; the reference's defaults (configurable with `opts.rateLimit`), published
 * in its profile. Chosen so that both limits are observable apart within a 600-request probe:
 * one client can send 2 x perIp + 1 from one address without reaching its own limit, and 2 x perClient
 * + 1 spread over six loopback addresses keeps every address under perIp (limits.token.rate-limit-split).
 */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { perIp: 100, perClient: 250, windowMs: 10_000 };
/**
 * The limits of the embedded default run (`baas-conform run` with no target): the same counts over a
 * one-second window, published in the profile like any window, so a run without the control API's
 * advanceClock (which limits.token.rate-limit uses to move past the window) waits about a second for
 * recovery instead of ten. A second still fits every burst of the rate-limit checks (a few
 * hundred token requests take well under 200 ms on loopback) and stays above the run's own token
 * traffic (about 55 requests in its busiest second). A target behind added latency needs a longer
 * window than the latency (a burst must fit one window): those runs keep DEFAULT_RATE_LIMIT.
 */
export const EMBEDDED_RUN_RATE_LIMIT: RateLimitOptions = { ...DEFAULT_RATE_LIMIT, windowMs: 1000 };

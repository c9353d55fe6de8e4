// 429 handling: exponential backoff with full jitter (section 8: "callers use exponential
// backoff"), honouring Retry-After when the target sends one (RFC 9110 10.2.3).
//
// A 429 is never an answer to a check that does not test rate limiting (those send with noRetry): it
// is waited out, attempt after attempt, until the target answers or the wait bound is spent. Section 8
// shows no numeric limits, so a sandbox whose one limit is shared by every endpoint is conforming; its
// 429s must not change a verdict. Only a target still answering 429 after maxWaitMs of waiting (or
// maxRetries attempts) blocks the check, naming the rate limit, never a rule of the check's.

import { RUN_DEFAULTS } from '../options/defaults.ts';

export const RETRY_DEFAULTS = {
  baseMs: 200,
  capMs: 5_000,
  /** Retries of one request; with maxWaitMs, whichever is spent first ends the wait. */
  maxRetries: 20,
  /** A hostile or misconfigured Retry-After must not stall a run. */
  retryAfterCapMs: 10_000,
  /**
   * Sleep spent waiting out 429s for one request (--rate-limit-wait): a target that never stops
   * answering 429 ends the check after this. Not charged to the request's budget or the check's time
   * limit (the limit follows the waiting).
   */
  maxWaitMs: RUN_DEFAULTS.rateLimitWaitMs,
} as const;

export type RetryOptions = { baseMs: number; capMs: number; maxRetries: number; retryAfterCapMs: number; maxWaitMs: number };

/** Retry-After as seconds or an HTTP date -> ms (>= 0), or undefined when absent/unparseable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Delay before retry number `retry` (1-based). */
export function backoffDelay(retry: number, retryAfter: string | undefined, opts: RetryOptions, random: () => number = Math.random): number {
  const after = parseRetryAfter(retryAfter);
  if (after !== undefined) return Math.min(after, opts.retryAfterCapMs);
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

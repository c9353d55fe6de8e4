// 429 handling: exponential backoff with full jitter (section 8: "callers use exponential
// backoff"), honouring Retry-After when the target sends one.

export const RETRY_DEFAULTS = {
  baseMs: 200,
  capMs: 5_000,
  maxRetries: 5,
  /** A hostile or misconfigured Retry-After must not stall a run. */
  retryAfterCapMs: 10_000,
} as const;

export type RetryOptions = { baseMs: number; capMs: number; maxRetries: number; retryAfterCapMs: number };

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

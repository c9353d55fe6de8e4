// Pacing after a 429 shows a limit (issue 32). Without profile.rate_limit the run knows no numbers
// (section 8 shows none), so a token request answered 429 during an ordinary check is the first
// evidence: the limit is what the target states (RateLimit-Policy / RateLimit / RateLimit-Limit of
// draft-ietf-httpapi-ratelimit-headers, or the common X-RateLimit-Limit), else the token requests it
// accepted in the window that ended in the 429. The window is the stated policy window, else the reset
// or Retry-After, else LEARN_DEFAULTS.windowMs. The run then paces later token requests below it
// (src/client/pace.ts) instead of sleeping out Retry-After again and again.
//
// A probe of the limit (noRetry: the rate-limit checks) floods on purpose: while one was answered
// within the last window, a 429 tells nothing of the next ordinary request and nothing is learned.

import { PACE_SHARE, Pacer } from './pace.ts';
import { parseRetryAfter } from './retry.ts';

export const LEARN_DEFAULTS = {
  /** The window when the 429 states none (no policy, no reset, no Retry-After). */
  windowMs: 1_000,
  /** A stated window longer than this is cut to it: a long Retry-After must not hold the run for an hour. */
  maxWindowMs: 60_000,
  /** Accepted token requests remembered (a bound on memory; far above any limit a window could learn). */
  maxRemembered: 10_000,
} as const;

/** What a 429's headers state about the limit: requests per window, and the window. */
export interface StatedLimit {
  limit?: number;
  windowMs?: number;
}

const positive = (v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v.trim());
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/** A parameter `name=value` of a structured header (RateLimit-Policy `q=10;w=60`, RateLimit `limit=10, reset=5`). */
const param = (header: string | undefined, names: string[]): number | undefined => {
  if (header === undefined) return undefined;
  for (const name of names) {
    const m = new RegExp(`(?:^|[;,\\s])${name}=(\\d+(?:\\.\\d+)?)`, 'i').exec(header);
    if (m) return positive(m[1]);
  }
  return undefined;
};

/** Seconds until the reset: delta seconds, or (X-RateLimit-Reset as many servers send it) epoch seconds. */
const resetMs = (v: string | undefined, now: number): number | undefined => {
  const n = positive(v);
  if (n === undefined) return undefined;
  return n > 1e9 ? Math.max(0, n * 1000 - now) : n * 1000;
};

/** The limit and window a 429's headers state (header names lower-case, as the client records them). */
export function statedLimit(headers: Record<string, string>, now = Date.now()): StatedLimit {
  const policy = headers['ratelimit-policy'];
  const combined = headers.ratelimit;
  // RateLimit-Policy: `10;w=60` (draft 0-6) or `"default";q=10;w=60` (draft 7+).
  const policyLimit = param(policy, ['q']) ?? positive(/^\s*(\d+)\s*(?:[;,]|$)/.exec(policy ?? '')?.[1]);
  const limit = policyLimit ?? param(combined, ['limit']) ?? positive(headers['ratelimit-limit']) ?? positive(headers['x-ratelimit-limit']);
  const windowMs =
    (param(policy, ['w']) ?? 0) * 1000 ||
    (param(combined, ['reset', 't']) ?? 0) * 1000 ||
    resetMs(headers['ratelimit-reset'], now) ||
    resetMs(headers['x-ratelimit-reset'], now) ||
    parseRetryAfter(headers['retry-after'], now) ||
    undefined;
  return { ...(limit !== undefined ? { limit: Math.floor(limit) } : {}), ...(windowMs !== undefined ? { windowMs } : {}) };
}

/** Per run: what ordinary token requests met, and the pacer it shows after a 429. */
export class LimitLearner {
  /** Send times of ordinary token requests the target accepted (answered other than 429). */
  private readonly accepted: number[] = [];
  private lastProbe = -Infinity;

  /** A probe of the limit (noRetry) was answered: 429s within a window of it teach nothing. */
  probed(now = performance.now()): void {
    this.lastProbe = now;
  }

  /** An ordinary token request sent at `sentAt` was accepted. */
  acceptedAt(sentAt: number, now = performance.now()): void {
    this.accepted.push(sentAt);
    while (this.accepted.length > LEARN_DEFAULTS.maxRemembered || (this.accepted.length && this.accepted[0] < now - LEARN_DEFAULTS.maxWindowMs)) this.accepted.shift();
  }

  /**
   * An ordinary token request was answered 429: the pacer this shows (never above `current`'s pace),
   * or undefined when it shows none (a probe just flooded, or nothing was accepted in the window:
   * something else spent the limit).
   */
  learn(headers: Record<string, string>, current: Pacer | undefined, now = performance.now()): Pacer | undefined {
    const stated = statedLimit(headers);
    const windowMs = Math.min(LEARN_DEFAULTS.maxWindowMs, stated.windowMs ?? current?.windowMs ?? LEARN_DEFAULTS.windowMs);
    if (now - this.lastProbe < windowMs) return undefined;
    const seen = stated.limit ?? this.accepted.filter((t) => t >= now - windowMs).length;
    if (seen < 1) return undefined;
    const perWindow = Math.max(1, Math.floor(seen * PACE_SHARE));
    if (current && current.perWindow <= perWindow && current.windowMs >= windowMs) return undefined;
    return new Pacer(Math.min(perWindow, current?.perWindow ?? Infinity), Math.max(windowMs, current?.windowMs ?? 0));
  }
}

// The sample client's HTTP layer (undici): a request timeout, and retries on 429 and on a timeout
// with exponential backoff and full jitter, honouring Retry-After (RFC 9110). The faulty modes bend
// exactly one of these.

import { Agent, request } from 'undici';
import type { ClientMode } from './modes.ts';

export interface Answer {
  status: number;
  /** The parsed JSON answer (the text when it is not JSON): read with `pick`, which checks each step. */
  body: unknown;
}

/** The value at `path` in a JSON answer (object keys, array indexes), or undefined where a step is missing. */
export function pick(body: unknown, ...path: (string | number)[]): unknown {
  let at = body;
  for (const step of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = Array.isArray(at) ? (typeof step === 'number' ? at[step] : undefined) : (at as Record<string, unknown>)[String(step)];
  }
  return at;
}

export interface CallOptions {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Headers that depend on the attempt (a fresh token for each one). */
  perAttempt?: () => Promise<Record<string, string>>;
}

/** Full jitter from 100 ms: the conforming client. */
const FULL_JITTER_BASE_MS = 100;
/** Equal jitter from 25 ms: the bank modes whose rule is not about backoff (see `strategy`). */
const EQUAL_JITTER_BASE_MS = 25;
const CAP_MS = 2000;
/** Seven retries: the default audit plan's bursts are seven 429s long. */
const MAX_ATTEMPTS = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The backoff of each mode. The conforming client uses full jitter: one wait may be near zero, so one
 * burst may show no growth by chance; the judge asks for growth in one burst of the plan's three
 * (src/audit/judges/backoff.sim.test.ts). Bank modes that break another rule use equal jitter, which
 * shows growth in every burst even when a stall stretches early waits, so the kill matrix names their own
 * rule only (from 25 ms: a burst of seven takes ~2.4 s, not ~3.9 s from 50 ms); the backoff modes bend
 * it on purpose.
 */
function strategy(mode: ClientMode): 'full' | 'equal' | 'none' | 'fixed' {
  if (mode === 'no-backoff') return 'none';
  if (mode === 'fixed-retry') return 'fixed';
  return mode === 'none' ? 'full' : 'equal';
}

export class Http {
  private readonly agent: Agent;
  calls = 0;
  constructor(private readonly mode: ClientMode, private readonly timeoutMs: number) {
    this.agent = new Agent(mode === 'no-keepalive' ? { pipelining: 0, keepAliveTimeout: 1 } : { keepAliveTimeout: 4000 });
  }

  /** How long to wait before attempt `attempt + 1` after a 429 (attempt counts from 1). */
  private backoff(attempt: number, retryAfter: number | undefined): number {
    const how = strategy(this.mode);
    const cap = (base: number) => Math.min(CAP_MS, base * 2 ** (attempt - 1));
    let wait = 0;
    if (how === 'full') wait = Math.random() * cap(FULL_JITTER_BASE_MS);
    if (how === 'equal') wait = cap(EQUAL_JITTER_BASE_MS) / 2 + Math.random() * (cap(EQUAL_JITTER_BASE_MS) / 2);
    if (how === 'fixed') wait = 100;
    if (retryAfter !== undefined && this.mode !== 'ignore-retry-after') wait = Math.max(wait, retryAfter * 1000);
    return wait;
  }

  async call(o: CallOptions): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { ...o.headers, ...(await o.perAttempt?.()) };
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      if (this.mode === 'no-keepalive') headers.connection = 'close';
      this.calls++;
      try {
        const res = await request(o.url, {
          method: o.method as 'GET',
          headers,
          body: o.body === undefined ? undefined : JSON.stringify(o.body),
          dispatcher: this.agent,
          ...(this.mode === 'no-timeout' ? { headersTimeout: 0, bodyTimeout: 0 } : { signal: AbortSignal.timeout(this.timeoutMs) }),
        });
        const text = await res.body.text();
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        if (res.statusCode === 429 && attempt < MAX_ATTEMPTS) {
          const ra = Number(res.headers['retry-after']);
          await sleep(this.backoff(attempt, Number.isFinite(ra) && ra >= 0 ? ra : undefined));
          continue;
        }
        return { status: res.statusCode, body };
      } catch (e) {
        // A timeout: try again (with backoff), a bounded number of times.
        if ((e as Error).name === 'TimeoutError' && attempt < MAX_ATTEMPTS) {
          await sleep(this.backoff(attempt, undefined));
          continue;
        }
        throw e;
      }
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

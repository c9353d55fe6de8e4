// The HttpClient one check sees. It adds what is per check on top of the run's HttpSession: the
// 429 retry loop bounded in count and in waiting, the time spent waiting on the target (the check's
// time limit grows with slow answers, so a slow target is not blamed on the check), the responses kept
// for the audit of every answer, and one W3C trace whose spans are the attempts.

import type { HttpClient, HttpRequest, HttpResponse } from './types.ts';
import type { ObservedResponse } from '../checks/audit.ts';
import type { Exchange } from '../events/index.ts';
import { ACCEPT_ENCODING } from './decode.ts';
import { CLIENT_DEFAULTS, FAST_ANSWER_MS } from './defaults.ts';
import { TransportError, toTransportError } from './errors.ts';
import { recordExchange, type AttemptRecord } from './exchange-record.ts';
import type { HttpSession } from './http.ts';
import type { RetryOptions } from './retry.ts';
import { SafeModeRefusal, type SafeGuard } from './safe-guard.ts';
import { newTraceId, withTrace } from './trace.ts';

/** Responses kept per check for the audit of every answer (memory stays bounded). */
const OBSERVED_MAX = 5000;

export interface CheckClientOptions {
  signal?: AbortSignal;
  onExchange?: (exchange: Exchange) => void;
  /** The --safe guard (safe-guard.ts): a request it names a reason for is refused, never sent. */
  refuse?: SafeGuard;
  /** Narrower 429 bounds for this client than the session's (a load read-back waits less than a check). */
  retry?: Partial<Pick<RetryOptions, 'maxRetries' | 'maxWaitMs'>>;
}

/** An HttpClient bound to one check; also maps responses back to their recorded exchange. */
export interface CheckHttpClient extends HttpClient {
  exchangeOf(res: HttpResponse): Exchange | undefined;
  /** The most recent exchange (for failures thrown without a response). */
  readonly lastExchange: Exchange | undefined;
  /** Milliseconds spent waiting on the target so far (all attempts). */
  readonly waitedMs: number;
  /**
   * Waiting beyond a fast answer, summed answer by answer (each attempt's time past FAST_ANSWER_MS;
   * retry sleeps count whole): the per-check limit grows with it. Per answer, so fast answers never
   * cancel out the slow ones.
   */
  readonly slowMs: number;
  /** Responses received for model operations (every attempt, bounded), for the runner's audit of every answer. */
  observed(): readonly ObservedResponse[];
}

const REDIRECTS = new Set([301, 302, 307, 308]);

/**
 * The Location of a redirect that only adds or removes the trailing slash of the requested path on the
 * same origin (FastAPI's redirect_slashes, Django's APPEND_SLASH); undefined for any other answer.
 */
export function slashRedirect(url: URL, res: Pick<HttpResponse, 'status' | 'headers'>): string | undefined {
  const location = res.headers.location;
  if (!REDIRECTS.has(res.status) || typeof location !== 'string') return undefined;
  let to: URL;
  try {
    to = new URL(location, url);
  } catch {
    return undefined;
  }
  const bare = (p: string) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);
  if (to.origin !== url.origin || to.pathname === url.pathname || bare(to.pathname) !== bare(url.pathname)) return undefined;
  return to.href;
}

export class CheckClient implements CheckHttpClient {
  private sent = 0;
  private waited = 0;
  private slow = 0;
  private readonly seen: ObservedResponse[] = [];
  private readonly exchanges = new WeakMap<HttpResponse, Exchange>();
  private last?: Exchange;
  /**
   * Per server (api, pci, control), set once it rate limited this check past the wait bound: later sends
   * to that server end at once. Per server, so a send to a server that never refused (a user created
   * through the API before a rate-limited control call) still runs and the block names the real cause.
   */
  private readonly rateLimited = new Map<string, TransportError>();
  /** One W3C trace per check (src/client/trace.ts); each attempt is a span of it. */
  private readonly traceId = newTraceId();

  constructor(
    private readonly session: HttpSession,
    private readonly checkId: string,
    private readonly opts: CheckClientOptions,
  ) {}

  get count(): number {
    return this.sent;
  }
  get waitedMs(): number {
    return this.waited;
  }
  get slowMs(): number {
    return this.slow;
  }

  observed(): readonly ObservedResponse[] {
    return this.seen;
  }

  get lastExchange(): Exchange | undefined {
    return this.last;
  }

  exchangeOf(res: HttpResponse): Exchange | undefined {
    return this.exchanges.get(res);
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const s = this.session;
    const target = s.resolveTarget(req);
    const refusal = this.opts.refuse?.(req, target);
    if (refusal) throw new SafeModeRefusal(refusal);
    // Accept-Encoding is sent deliberately: without it any coding is acceptable (RFC 9110) and a
    // compressing proxy would answer with a coding the client did not expect.
    const headers: Record<string, string> = { 'user-agent': CLIENT_DEFAULTS.userAgent, accept: 'application/json', 'accept-encoding': ACCEPT_ENCODING };
    for (const [k, v] of Object.entries(req.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
    let body: string | undefined;
    if (req.rawBody !== undefined) body = req.rawBody;
    else if (req.body !== undefined) body = JSON.stringify(req.body);
    if (body !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/json';
    // A 429 is waited out (Retry-After, else exponential backoff with full jitter), attempt after
    // attempt, unless the request is about the 429 (noRetry). Each attempt is a request of its own and
    // gets the whole budget (section 8's timeout is per request), so a retry answered within it is on
    // time: the time a 429 made us sleep is never a TIMEOUT blamed on the target. The sleep is slow
    // waiting, so the check's time limit follows it. Bounded in sleep (retry.maxWaitMs) and in count
    // (retry.maxRetries); a target still answering 429 after that ends the request as RATE_LIMITED.
    // Once past the bound, the check is blocked anyway: do not wait the bound out again for every
    // value fast-check tries while shrinking.
    const server = req.server ?? 'api';
    const limited = this.rateLimited.get(server);
    if (limited && !req.noRetry) {
      const again = new TransportError('RATE_LIMITED', limited.message, limited.url);
      if (req.op) again.operation = req.op;
      throw again;
    }
    let rateWaitedMs = 0;
    const retry = this.opts.retry ? { ...s.retry, ...this.opts.retry } : s.retry;
    for (let attempt = 1; ; attempt++) {
      this.opts.signal?.throwIfAborted();
      // Below the target's documented token limit (src/client/pace.ts): time held here is waiting, as a 429's sleep is.
      const paced = s.pace(req, this.opts.signal);
      let answered: (() => void) | undefined;
      if (paced) {
        const pacing = performance.now();
        answered = await paced.catch((err: unknown) => {
          this.opts.signal?.throwIfAborted();
          throw err;
        });
        const held = performance.now() - pacing;
        this.waited += held;
        this.slow += held;
      }
      this.sent++;
      const started = performance.now();
      const { headers: sent, ids } = withTrace(headers, this.traceId);
      const record = (res: HttpResponse | undefined, error: Exchange['error'], durationMs: number) =>
        this.record({ checkId: this.checkId, target, headers: sent, body, res, error, durationMs, attempt, ids });
      let res: HttpResponse;
      try {
        const attempt = s.attempt(target, sent, body, this.opts.signal);
        res = await (answered ? attempt.finally(answered) : attempt);
      } catch (err) {
        this.waitedOn(performance.now() - started);
        const te = err instanceof TransportError ? err : toTransportError(err, target.url.href, { timedOut: false, aborted: false, budgetMs: s.timeoutBudgetMs });
        if (req.op && te.operation === undefined) te.operation = req.op;
        record(undefined, { code: te.code, message: s.mask(te.message) }, performance.now() - started);
        throw te;
      }
      this.waitedOn(res.durationMs);
      s.answered(req, res, started);
      if (req.op && this.seen.length < OBSERVED_MAX) this.seen.push({ op: req.op, res });
      s.learn(res);
      this.exchanges.set(res, record(res, undefined, res.durationMs));
      const slash = slashRedirect(target.url, res);
      if (slash) {
        const err = new TransportError('SLASH_REDIRECT', `${s.mask(target.url.href)} answered HTTP ${res.status} to ${s.mask(slash)}, the same path ${target.url.pathname.endsWith('/') ? 'without' : 'with'} a trailing slash (the framework's route normalisation); the client never follows redirects, so write the path as the target routes it${req.op ? ` (profile.operations.${req.op}.path, or the base URL)` : ''}`, target.url.href);
        if (req.op) err.operation = req.op;
        throw err;
      }
      if (res.status !== 429 || req.noRetry) return res;
      const delay = s.backoff(attempt, res.headers['retry-after']);
      if (attempt > retry.maxRetries || rateWaitedMs + delay > retry.maxWaitMs) {
        const err = new TransportError(
          'RATE_LIMITED',
          `${s.mask(target.url.href)} answered 429 (rate limiting) to all ${attempt} attempts over ${(rateWaitedMs / 1000).toFixed(1)} s of waiting (Retry-After honoured, else exponential backoff); the check could not get an answer to judge. Run fewer checks at once (--concurrency), or raise the wait bound (--rate-limit-wait) if the target's window is longer`,
          target.url.href,
        );
        if (req.op) err.operation = req.op;
        this.rateLimited.set(server, err);
        throw err;
      }
      // The bound counts the planned waits, so where it ends does not depend on how late timers fire.
      rateWaitedMs += delay;
      const slept = performance.now();
      await s.sleep(delay, this.opts.signal);
      const ms = performance.now() - slept;
      this.waited += ms;
      this.slow += ms;
    }
  }

  private waitedOn(ms: number): void {
    this.waited += ms;
    this.slow += Math.max(0, ms - FAST_ANSWER_MS);
  }

  private record(a: AttemptRecord): Exchange {
    const exchange = recordExchange(a, (text) => this.session.mask(text));
    this.last = exchange;
    this.opts.onExchange?.(exchange);
    return exchange;
  }
}

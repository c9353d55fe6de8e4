// The run's HTTP session: undici, one Pool per origin (and source address) shared by every check,
// options resolved once, and the secrets learned at run time so every record masks them. The pieces
// live beside it: where a request goes (request-target.ts), one bounded attempt (attempt.ts), the
// per-check client with its 429 retry loop (check-client.ts) and the recorded exchange
// (exchange-record.ts).

import { setTimeout as sleep } from 'node:timers/promises';
import type { SecureContext } from 'node:tls';
import { Pool } from 'undici';
import type { HttpRequest, HttpResponse } from './types.ts';
import type { Model } from '../model/types.ts';
import { maskSecrets } from '../profile/mask.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { sendAttempt } from './attempt.ts';
import { CheckClient, type CheckClientOptions, type CheckHttpClient } from './check-client.ts';
import { CLIENT_DEFAULTS } from './defaults.ts';
import { resolveRequestTarget, type RequestTarget } from './request-target.ts';
import { backoffDelay, RETRY_DEFAULTS, type RetryOptions } from './retry.ts';
import { LimitLearner } from './learned-limit.ts';
import { Pacer } from './pace.ts';
import { STALL_CAP } from './stall.ts';
import { readTargetCa, targetOrigins, targetSecureContext, tlsConnectOptions } from './target-ca.ts';

export interface HttpSessionOptions {
  profile: ResolvedProfile;
  model?: Model;
  /** Per-request budget; default the model's section 8 recommended request timeout (one of the two is required). */
  timeoutBudgetMs?: number;
  maxBodyBytes?: number;
  retry?: Partial<RetryOptions>;
  /** Injected for tests: jitter source. */
  random?: () => number;
}

/** Per-run HTTP state: pools, the secrets learned at run time, options resolved once. */
export class HttpSession {
  readonly profile: ResolvedProfile;
  readonly model?: Model;
  readonly timeoutBudgetMs: number;
  readonly maxBodyBytes: number;
  readonly retry: RetryOptions;
  private readonly random: () => number;
  private readonly pools = new Map<string, Pool>();
  /** TLS context with profile.ca_file's certificates, made once; used on the target's own origins only. */
  private readonly tls: SecureContext | undefined;
  private readonly caOrigins: Set<string>;
  /** Tokens the target issued during the run; masked like profile secrets. */
  readonly learnedSecrets = new Set<string>();

  constructor(opts: HttpSessionOptions) {
    this.profile = opts.profile;
    this.model = opts.model;
    const budget = opts.timeoutBudgetMs ?? opts.model?.requestTimeoutMs();
    if (budget === undefined) throw new TypeError('HttpSession: give a model (its section 8 request timeout is the default budget) or timeoutBudgetMs');
    this.timeoutBudgetMs = budget;
    this.maxBodyBytes = opts.maxBodyBytes ?? CLIENT_DEFAULTS.maxBodyBytes;
    this.retry = { ...RETRY_DEFAULTS, ...opts.retry };
    this.random = opts.random ?? Math.random;
    this.tls = targetSecureContext(readTargetCa(opts.profile));
    this.caOrigins = targetOrigins(opts.profile);
    this.pacer = Pacer.forProfile(opts.profile);
    this.learner = this.pacer ? undefined : new LimitLearner();
    // (A partial model, as some tests build, may have no rules.)
    this.paced = new Set((opts.model?.rules as Model['rules'] | undefined)?.find((r) => r.id === 'LIMIT-TOKEN-RATE-LIMIT')?.operations ?? []);
  }

  /**
   * Below the profile's documented token limits (src/client/pace.ts); without them, below the limit a
   * 429 showed (learned-limit.ts) once one did; undefined until then.
   */
  private pacer: Pacer | undefined;
  /** Learns a limit from 429s when the profile documents none (a documented limit is never overridden). */
  private readonly learner: LimitLearner | undefined;
  /** The operations section 8 rate-limits (the token endpoint), from the model's rule. */
  private readonly paced: ReadonlySet<string>;

  /**
   * Waits, for an operation the target rate-limits, until one more request stays below its documented
   * limit; the result is called when the answer (or the failure) comes. Undefined, synchronously, when
   * the request is not paced: the unpaced path (nearly every request) costs no promise and no tick.
   */
  pace(req: HttpRequest, signal?: AbortSignal): Promise<() => void> | undefined {
    // A probe of the limit (noRetry: the rate-limit checks) is theirs alone: never held, and not counted
    // either (a flood spread over source addresses and clients says nothing of the next token request;
    // those checks wait for the target to accept again before they end).
    if (!this.pacer || !req.op || req.noRetry || !this.paced.has(req.op)) return undefined;
    return this.pacer.take(signal);
  }

  /**
   * An answer to a request sent at `sentAt` (performance.now()): for the token endpoint without a
   * documented limit, a probe's answer, an accepted request, or a 429 that shows a limit to pace below.
   */
  answered(req: HttpRequest, res: Pick<HttpResponse, 'status' | 'headers'>, sentAt: number): void {
    if (!this.learner || !req.op || !this.paced.has(req.op)) return;
    if (req.noRetry) this.learner.probed();
    else if (res.status !== 429) this.learner.acceptedAt(sentAt);
    else this.pacer = this.learner.learn(res.headers, this.pacer) ?? this.pacer;
  }

  mask(text: string): string {
    return maskSecrets(text, this.profile, this.learnedSecrets);
  }

  /** The pool of `origin`, one per source address (the per-IP rate-limit check connects from 127.0.0.2, ...). */
  pool(origin: string, localAddress?: string): Pool {
    const key = localAddress ? `${origin}|${localAddress}` : origin;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = new Pool(origin, {
        // The per-request signal (attempt.ts, stall.ts) bounds a connect too; these are backstops.
        connect: { timeout: this.timeoutBudgetMs * STALL_CAP, ...tlsConnectOptions(origin, this.caOrigins, this.tls) },
        headersTimeout: this.timeoutBudgetMs * STALL_CAP,
        bodyTimeout: this.timeoutBudgetMs * STALL_CAP,
        ...(localAddress ? { localAddress } : {}),
      });
      this.pools.set(key, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    // destroy, not close: a stalled keep-alive request must not hold the run open.
    await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)));
  }

  client(checkId: string, opts: CheckClientOptions = {}): CheckHttpClient {
    return new CheckClient(this, checkId, opts);
  }

  /** Resolves method + URL for a request (op via model/profile, or raw path). */
  resolveTarget(req: HttpRequest): RequestTarget {
    return resolveRequestTarget(req, this.profile, this.model);
  }

  /** One attempt; never retries. Throws TransportError. A smaller `budgetMs` narrows the session's budget, never widens it. */
  attempt(target: RequestTarget, headers: Record<string, string>, body: string | undefined, signal?: AbortSignal, budgetMs?: number): Promise<HttpResponse> {
    const budget = Math.max(1, Math.floor(Math.min(budgetMs ?? this.timeoutBudgetMs, this.timeoutBudgetMs)));
    return sendAttempt(() => this.pool(target.url.origin, target.localAddress), target, headers, body, {
      budgetMs: budget,
      maxBodyBytes: this.maxBodyBytes,
      ...(signal ? { signal } : {}),
    });
  }

  /** Remembers tokens the target hands out so they are masked wherever they reappear. */
  learn(res: HttpResponse): void {
    const token = res.json && typeof res.json === 'object' ? (res.json as { access_token?: unknown }).access_token : undefined;
    if (typeof token === 'string' && token.length >= 8) this.learnedSecrets.add(token);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleep(ms, undefined, signal ? { signal } : undefined);
  }

  backoff(retry: number, retryAfter: string | undefined): number {
    return backoffDelay(retry, retryAfter, this.retry, this.random);
  }
}

// The HTTP client checks use. undici, one Pool per origin shared by the run; every request has a
// hard time budget (section 8 recommends 30 s) and a bounded body, so a stalled or hostile target
// can neither hang the run nor exhaust memory. Every exchange is recorded, secrets masked.
// Size: about 350 lines: sending, the budget-bounded 429 retry, body bounds and recording share one
// per-request state; decoding already lives in decode.ts.

import { setTimeout as sleep } from 'node:timers/promises';
import type { SecureContext } from 'node:tls';
import { Pool, type Dispatcher } from 'undici';
import type { HttpClient, HttpRequest, HttpResponse } from '../checks/types.ts';
import { SkipSignal } from '../checks/signals.ts';
import type { ObservedResponse } from '../checks/audit.ts';
import type { Exchange, RecordedRequest, RecordedResponse } from '../events/index.ts';
import type { Model } from '../model/types.ts';
import { maskSecrets } from '../profile/mask.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { toCurl } from './curl.ts';
import { ACCEPT_ENCODING, decodeBody, parseJsonBounded, tooLarge } from './decode.ts';
import { TransportError, toTransportError } from './errors.ts';
import { backoffDelay, RETRY_DEFAULTS, type RetryOptions } from './retry.ts';
import { readTargetCa, targetOrigins, targetSecureContext, tlsConnectOptions } from './target-ca.ts';
import { newTraceId, withTrace, type TraceIds } from './trace.ts';

/** Responses kept per check for the audit of every answer (memory stays bounded). */
const OBSERVED_MAX = 5000;

export const CLIENT_DEFAULTS = {
  maxBodyBytes: 2 * 1024 * 1024,
  /** Bodies kept in recorded exchanges (reports), per direction. */
  recordBodyBytes: 8 * 1024,
  /** Curl commands carry the whole body up to this size so they reproduce the request. */
  curlBodyBytes: 64 * 1024,
  userAgent: 'baas-conform',
} as const;


/** An answer within this is "fast": waiting on it does not extend a check's time limit. */
export const FAST_ANSWER_MS = 100;

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

export interface CheckClientOptions {
  signal?: AbortSignal;
  onExchange?: (exchange: Exchange) => void;
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

interface Target {
  method: string;
  url: URL;
  localAddress?: string;
}

function truncate(text: string, max: number): { body: string; truncated: boolean } {
  if (Buffer.byteLength(text) <= max) return { body: text, truncated: false };
  return { body: Buffer.from(text).subarray(0, max).toString('utf8'), truncated: true };
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
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
        connect: { timeout: this.timeoutBudgetMs, ...tlsConnectOptions(origin, this.caOrigins, this.tls) },
        headersTimeout: this.timeoutBudgetMs,
        bodyTimeout: this.timeoutBudgetMs,
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
  resolveTarget(req: HttpRequest): Target {
    let method = req.method?.toUpperCase();
    let path = req.path;
    let server = req.server;
    if (req.op) {
      const op = this.model?.operations.get(req.op);
      if (!op) throw new Error(`unknown operationId ${req.op} (not in spec/openapi.yaml)`);
      server ??= op.server;
      if (op.pathUnspecified) {
        const loc = this.profile.operations[req.op];
        if (!loc) throw new SkipSignal(`profile.operations.${req.op} not given: the spec does not show its path`);
        method ??= loc.method.toUpperCase();
        path = loc.path;
      } else {
        method ??= op.method.toUpperCase();
        path = op.path;
      }
      path = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        const v = req.params?.[name];
        if (v === undefined) throw new Error(`${req.op}: path parameter ${name} not given`);
        return encodeURIComponent(v);
      });
    }
    if (path === undefined) throw new Error('HttpRequest needs op or path');
    let url: URL;
    if (/^https?:\/\//i.test(path)) {
      url = new URL(path);
    } else {
      const base = this.baseFor(server ?? 'api');
      url = new URL(base + (path.startsWith('/') ? path : `/${path}`));
    }
    for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.append(k, String(v));
    return { method: method ?? 'GET', url, ...(req.localAddress ? { localAddress: req.localAddress } : {}) };
  }

  private baseFor(server: 'api' | 'pci' | 'control'): string {
    if (server === 'api') return this.profile.base_url;
    if (server === 'pci') {
      if (!this.profile.pci_url) throw new SkipSignal('needs the card-tokenization environment: profile.pci_url is not set');
      return this.profile.pci_url;
    }
    if (!this.profile.control_url) throw new SkipSignal('needs the test-control API: profile.control_url is not set');
    return this.profile.control_url;
  }

  /** One attempt; never retries. Throws TransportError. */
  async attempt(target: Target, headers: Record<string, string>, body: string | undefined, signal?: AbortSignal, budgetMs?: number): Promise<HttpResponse> {
    const started = performance.now();
    const budget = Math.max(1, Math.floor(Math.min(budgetMs ?? this.timeoutBudgetMs, this.timeoutBudgetMs)));
    const timeout = AbortSignal.timeout(budget);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const href = target.url.href;
    const state = () => ({ timedOut: timeout.aborted, aborted: !!signal?.aborted, budgetMs: budget });
    let res;
    try {
      res = await this.pool(target.url.origin, target.localAddress).request({
        method: target.method as Dispatcher.HttpMethod,
        path: target.url.pathname + target.url.search,
        headers,
        body,
        signal: combined,
        headersTimeout: budget,
        bodyTimeout: budget,
      });
    } catch (err) {
      throw toTransportError(err, href, state());
    }
    const max = this.maxBodyBytes;
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > max) {
        throw tooLarge(`${href}: Content-Length ${declared} exceeds the ${max}-byte limit (refused before reading)`, href, 0);
      }
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        // Stop reading as soon as the limit is passed: memory stays bounded whatever the server sends.
        if (size > max) throw tooLarge(`${href}: response body exceeds the ${max}-byte limit (refused after reading ${size} bytes)`, href, size);
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      res.body.destroy();
      throw toTransportError(err, href, state());
    }
    const raw = Buffer.concat(chunks);
    const headersOut = flattenHeaders(res.headers);
    const text = decodeBody(raw, headersOut['content-encoding'], max, href).toString('utf8');
    const { json, jsonError } = parseJsonBounded(text, href);
    const out: HttpResponse = { status: res.statusCode, headers: headersOut, text, json, durationMs: performance.now() - started };
    if (jsonError !== undefined) out.jsonError = jsonError;
    return out;
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

class CheckClient implements CheckHttpClient {
  private sent = 0;
  private waited = 0;
  private slow = 0;
  private readonly seen: ObservedResponse[] = [];
  private readonly exchanges = new WeakMap<HttpResponse, Exchange>();
  private last?: Exchange;
  /** Set once the target rate limited this check past the wait bound: later sends end at once. */
  private rateLimited?: TransportError;
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
    if (this.rateLimited && !req.noRetry) {
      const again = new TransportError('RATE_LIMITED', this.rateLimited.message, this.rateLimited.url);
      if (req.op) again.operation = req.op;
      throw again;
    }
    let rateWaitedMs = 0;
    for (let attempt = 1; ; attempt++) {
      this.opts.signal?.throwIfAborted();
      this.sent++;
      const started = performance.now();
      const { headers: sent, ids } = withTrace(headers, this.traceId);
      let res: HttpResponse;
      try {
        res = await s.attempt(target, sent, body, this.opts.signal);
      } catch (err) {
        this.waitedOn(performance.now() - started);
        const te = err instanceof TransportError ? err : toTransportError(err, target.url.href, { timedOut: false, aborted: false, budgetMs: s.timeoutBudgetMs });
        if (req.op && te.operation === undefined) te.operation = req.op;
        this.record(target, sent, body, undefined, { code: te.code, message: s.mask(te.message) }, performance.now() - started, attempt, ids);
        throw te;
      }
      this.waitedOn(res.durationMs);
      if (req.op && this.seen.length < OBSERVED_MAX) this.seen.push({ op: req.op, res });
      s.learn(res);
      this.exchanges.set(res, this.record(target, sent, body, res, undefined, res.durationMs, attempt, ids));
      if (res.status !== 429 || req.noRetry) return res;
      const delay = s.backoff(attempt, res.headers['retry-after']);
      if (attempt > s.retry.maxRetries || rateWaitedMs + delay > s.retry.maxWaitMs) {
        const err = new TransportError(
          'RATE_LIMITED',
          `${s.mask(target.url.href)} answered 429 (rate limiting) to all ${attempt} attempts over ${(rateWaitedMs / 1000).toFixed(1)} s of waiting (Retry-After honoured, else exponential backoff); the check could not get an answer to judge. Run fewer checks at once (--concurrency), or raise the wait bound (--rate-limit-wait) if the target's window is longer`,
          target.url.href,
        );
        if (req.op) err.operation = req.op;
        this.rateLimited = err;
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

  private record(
    target: Target,
    headers: Record<string, string>,
    body: string | undefined,
    res: HttpResponse | undefined,
    error: Exchange['error'],
    durationMs: number,
    attempt: number,
    ids: TraceIds | undefined,
  ): Exchange {
    const s = this.session;
    const maskedHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) maskedHeaders[k] = s.mask(`${k}: ${v}`).slice(k.length + 2);
    const url = s.mask(target.url.href);
    const request: RecordedRequest = { method: target.method, url, headers: maskedHeaders };
    if (body !== undefined) request.body = truncate(s.mask(body), CLIENT_DEFAULTS.recordBodyBytes).body;
    let response: RecordedResponse | undefined;
    if (res) {
      const rh: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) rh[k] = s.mask(v);
      const t = truncate(s.mask(res.text), CLIENT_DEFAULTS.recordBodyBytes);
      response = { status: res.status, headers: rh, body: t.body };
      if (t.truncated) response.truncated = true;
    }
    const curlBody = body === undefined ? undefined : truncate(body, CLIENT_DEFAULTS.curlBodyBytes).body;
    const { 'user-agent': _ua, ...curlHeaders } = headers;
    // A replay is a new request: it must not reuse this attempt's span or request id.
    if (ids) for (const h of ['traceparent', 'x-request-id']) delete curlHeaders[h];
    const exchange: Exchange = {
      checkId: this.checkId,
      request,
      durationMs: Math.round(durationMs),
      attempt,
      curl: s.mask(toCurl(target.method, target.url.href, curlHeaders, curlBody)),
    };
    if (response) exchange.response = response;
    if (error) exchange.error = error;
    if (ids) Object.assign(exchange, ids);
    this.last = exchange;
    this.opts.onExchange?.(exchange);
    return exchange;
  }
}

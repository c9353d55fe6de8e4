// One load run: safety check, scenario setup (undici), the load phase (autocannon, bounded in time
// and count), the token-burst contract and recovery probes, then the verdict.

import { hostname } from 'node:os';
import autocannon from 'autocannon';
import { RETRY_DEFAULTS, backoffDelay } from '../client/retry.ts';
import { ConfigError } from '../errors/index.ts';
import { loadModel, type Model } from '../model/index.ts';
import type { ResolvedProfile } from '../profile/index.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { encodeHistogram, newHistogram, summarise, toMicros, HISTOGRAM_ENCODING, HISTOGRAM_UNIT } from './histogram.ts';
import { assertTargetAllowed, LOAD_LIMITS } from './safety.ts';
import { scenarioById, SCENARIOS, type Scenario } from './scenarios.ts';
import { send, targetPath, tokenBody, type SetupHttp } from './setup.ts';
import { LOAD_RESULT_KIND, LOAD_RESULT_VERSION, type ContractResult, type Counts, type LoadResult, type RecoveryResult, type Thresholds } from './types.ts';
import { evaluate } from './verdict.ts';

export interface LoadOptions {
  scenario: string;
  profile: ResolvedProfile;
  /** Seconds (default 10, max 300). */
  durationSec?: number;
  connections?: number;
  /** At most this many requests (default: the scenario's, else 1,000,000). */
  maxRequests?: number;
  /** Offered load cap in req/s over all connections (autocannon overallRate). */
  rate?: number;
  /** Per-request budget; default model.limits.request_timeout (30 s). */
  timeoutMs?: number;
  thresholds?: Thresholds;
  allowRemote?: boolean;
  /** Recovery probe bounds (token-burst). */
  recovery?: { maxAttempts?: number; maxMs?: number };
  model?: Model;
}

export function timeoutBudgetMs(model: Model): number {
  const v = model.limits.request_timeout?.value;
  return typeof v === 'number' ? v * 1000 : 30_000;
}

export function category429(model: Model): string {
  return model.errorRule('ERR-RATE-LIMITED').category ?? model.categoryFor(429) ?? 'CategoryTransientFailure';
}

/** The section 7/8 429 contract for one response; returns the problem or undefined. */
export function check429(body: string, expectedCategory: string): string | undefined {
  let b: any;
  try {
    b = JSON.parse(body);
  } catch {
    return `429 body is not JSON: ${JSON.stringify(body.slice(0, 80))}`;
  }
  const cat = b?.error_category;
  if (!cat || typeof cat !== 'object') return '429 body has no error_category object';
  if (cat.category !== expectedCategory) return `error_category.category is ${JSON.stringify(cat.category)}, expected ${expectedCategory}`;
  if (cat.http_status_code !== 429) return `error_category.http_status_code is ${JSON.stringify(cat.http_status_code)}, expected 429`;
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A well-behaved client after the burst: exponential backoff with full jitter (src/client/retry.ts),
 * honouring Retry-After (capped), bounded in attempts and total time. Recovery time runs from the
 * first probe to the first 200.
 */
export async function recoveryProbe(s: SetupHttp, bounds: { maxAttempts?: number; maxMs?: number } = {}): Promise<RecoveryResult> {
  const maxAttempts = bounds.maxAttempts ?? 20;
  const maxMs = bounds.maxMs ?? 60_000;
  const opts = { ...RETRY_DEFAULTS, maxRetries: maxAttempts };
  const body = tokenBody(s.profile.clients[0]);
  const start = Date.now();
  const attempts: RecoveryResult['attempts'] = [];
  for (let i = 1; i <= maxAttempts; i++) {
    const at_ms = Date.now() - start;
    let status: number | 'error';
    let retryAfter: string | undefined;
    try {
      const r = await send(s, 'POST', '/api/v1/token', {}, body);
      status = r.status;
      const ra = r.headers['retry-after'];
      retryAfter = Array.isArray(ra) ? ra[0] : ra;
    } catch {
      status = 'error';
    }
    const attempt: RecoveryResult['attempts'][number] = { at_ms, status, ...(retryAfter !== undefined ? { retry_after: retryAfter } : {}) };
    attempts.push(attempt);
    if (status === 200) {
      return { recovered: true, recovery_ms: at_ms, attempts, limited_at_start: attempts[0].status === 429, detail: `got a token after ${at_ms} ms and ${i} attempt(s)` };
    }
    if (status !== 429 && status !== 'error') {
      return { recovered: false, recovery_ms: null, attempts, limited_at_start: attempts[0].status === 429, detail: `probe got HTTP ${status} (neither 200 nor 429)` };
    }
    const wait = backoffDelay(i, retryAfter, opts);
    if (Date.now() - start + wait > maxMs) break;
    attempt.waited_ms = wait;
    await sleep(wait);
  }
  return {
    recovered: false,
    recovery_ms: null,
    attempts,
    limited_at_start: attempts[0]?.status === 429,
    detail: `still limited after ${attempts.length} attempt(s) over ${Date.now() - start} ms (bounds: ${maxAttempts} attempts, ${maxMs} ms)`,
  };
}

export function resolveScenario(id: string): Scenario {
  const s = scenarioById(id);
  if (!s) throw new ConfigError(`load: unknown scenario ${JSON.stringify(id)}; one of ${SCENARIOS.map((x) => x.id).join(', ')}`);
  return s;
}

export const CLOSED_LOOP_NOTE =
  'autocannon is closed-loop: each connection sends its next request only after the previous response, so when the target stalls the requests it would have sent are never sent and percentiles understate latency (coordinated omission). Use --rate R for a fixed offered load.';

export function rateNote(rate: number, connections: number): string {
  return (
    `--rate ${rate}: offered load capped with autocannon overallRate (${rate} req/s over ${connections} connections). ` +
    `Each connection is still closed-loop (a slow response delays its next send), so latencies are corrected with HdrHistogram's expected-interval correction (${((connections * 1000) / rate).toFixed(3)} ms per connection); this is not a true open-loop generator.`
  );
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const scenario = resolveScenario(opts.scenario);
  const profile = opts.profile;
  assertTargetAllowed(profile.base_url, opts.allowRemote === true);
  const model = opts.model ?? (await loadModel());
  const timeoutMs = opts.timeoutMs ?? timeoutBudgetMs(model);
  if (!(timeoutMs >= 1000 && timeoutMs <= 300_000)) throw new ConfigError('load: timeout budget must be between 1000 and 300000 ms');
  const durationSec = opts.durationSec ?? LOAD_LIMITS.defaultDurationSec;
  if (!(durationSec > 0 && durationSec <= LOAD_LIMITS.maxDurationSec)) throw new ConfigError(`load: duration must be > 0 and <= ${LOAD_LIMITS.maxDurationSec} s`);
  const connections = opts.connections ?? LOAD_LIMITS.defaultConnections;
  if (!(Number.isInteger(connections) && connections >= 1 && connections <= LOAD_LIMITS.maxConnections)) throw new ConfigError(`load: connections must be 1..${LOAD_LIMITS.maxConnections}`);
  const maxRequests = opts.maxRequests ?? scenario.defaultMaxRequests ?? LOAD_LIMITS.defaultMaxRequests;
  if (!(Number.isInteger(maxRequests) && maxRequests >= connections && maxRequests <= LOAD_LIMITS.maxMaxRequests)) {
    throw new ConfigError(`load: --amount must be an integer between --connections (${connections}) and ${LOAD_LIMITS.maxMaxRequests}`);
  }
  const rate = opts.rate;
  if (rate !== undefined && !(Number.isInteger(rate) && rate >= 1 && rate <= LOAD_LIMITS.maxRate)) throw new ConfigError(`load: --rate must be an integer 1..${LOAD_LIMITS.maxRate}`);
  const effectiveConnections = rate !== undefined && rate < connections ? rate : connections;

  const http: SetupHttp = { profile, timeoutMs };
  const prepared = await scenario.setup(http);
  const expectedCategory = category429(model);

  const hist = newHistogram();
  const expectedIntervalUs = rate !== undefined ? Math.round((effectiveConnections * 1e6) / rate) : 0;
  const contract: ContractResult = { checked: 0, violations: 0, expected_category: expectedCategory, retry_after_present: 0, samples: [] };
  const errorKinds: Record<string, number> = {};

  const onResponse = (status: number, body: string, _ctx: unknown, headers: Record<string, unknown>) => {
    if (status !== 429 || !scenario.check429Contract) return;
    contract.checked++;
    if (headers['retry-after'] !== undefined || headers['Retry-After'] !== undefined) contract.retry_after_present++;
    const problem = check429(body, expectedCategory);
    if (problem) {
      contract.violations++;
      if (contract.samples.length < 5) contract.samples.push(problem);
    }
  };
  const requests = prepared.requests.map((r) => ({
    method: r.method,
    path: targetPath(profile, r.path),
    headers: r.headers,
    ...(r.body !== undefined ? { body: r.body } : {}),
    onResponse,
  }));

  const startedAt = new Date();
  const t0 = performance.now();
  let lastEventAt = t0;
  const ac = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: profile.base_url,
        connections,
        pipelining: 1,
        duration: durationSec,
        // maxOverallRequests (not `amount`): autocannon ignores the duration when `amount` is set.
        maxOverallRequests: maxRequests,
        ...(rate !== undefined ? { overallRate: rate } : {}),
        timeout: timeoutMs / 1000,
        requests,
        excludeErrorStats: false,
      } as autocannon.Options,
      (err, res) => {
        clearTimeout(watchdog);
        if (err) reject(err instanceof Error ? new ConfigError(`load: autocannon: ${err.message}`) : err);
        else resolve(res);
      },
    );
    // Bound in time even if autocannon misbehaves: duration + one timeout budget + slack.
    const watchdog = setTimeout(() => (instance as unknown as { stop(): void }).stop(), durationSec * 1000 + timeoutMs + 5_000);
    watchdog.unref();
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      lastEventAt = performance.now();
      const v = toMicros(responseTime);
      if (expectedIntervalUs > 0) hist.recordValueWithExpectedInterval(v, expectedIntervalUs);
      else hist.recordValue(v);
    });
    instance.on('reqError', (err: Error & { code?: string }) => {
      lastEventAt = performance.now();
      if (err.message === 'request timed out') {
        // A timed-out request took at least the budget: record it there rather than drop it.
        hist.recordValue(toMicros(timeoutMs));
        return;
      }
      const k = err.code ?? err.message;
      errorKinds[k] = (errorKinds[k] ?? 0) + 1;
    });
  });
  const finishedAt = new Date();

  const status: Record<string, number> = {};
  for (const [code, v] of Object.entries(ac.statusCodeStats ?? {})) status[code] = (v as { count: number }).count;
  const counts = countsFrom(status, ac.errors - ac.timeouts, ac.timeouts, errorKinds, scenario.expectedNon2xx);

  const recovery = scenario.recoveryProbe ? [await recoveryProbe(http, opts.recovery)] : undefined;

  // From the start to the last response or error: autocannon's own duration is rounded up to its
  // 1 s sampling tick, which inflates the time (and deflates req/s) of a run ended by --amount.
  const duration_s = round2(Math.max(0.01, ((lastEventAt > t0 ? lastEventAt : performance.now()) - t0) / 1000));
  const notes = [rate !== undefined ? rateNote(rate, effectiveConnections) : CLOSED_LOOP_NOTE];
  notes.push('Latency percentiles come from an HDR histogram of every response time (us resolution); timed-out requests are recorded at the timeout budget.');
  if (recovery?.[0] && recovery[0].recovered && !recovery[0].limited_at_start) notes.push('recovery: the first probe already got 200 (the limit window had reset); recovery time 0 says little.');

  const base: Omit<LoadResult, 'verdict' | 'thresholds'> = {
    kind: LOAD_RESULT_KIND,
    version: LOAD_RESULT_VERSION,
    tool: `${TOOL_NAME} ${TOOL_VERSION}`,
    scenario: scenario.id,
    sends: prepared.sends,
    target: profile.base_url,
    sources: [{ machine: hostname(), started_at: startedAt.toISOString(), duration_s, connections: effectiveConnections }],
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_s,
    config: { connections: effectiveConnections, pipelining: 1, duration_s: durationSec, max_requests: maxRequests, rate: rate ?? null, timeout_ms: timeoutMs, open_loop: false },
    counts,
    rps: duration_s > 0 ? round2(counts.responses / duration_s) : 0,
    latency_ms: summarise(hist),
    histogram: { encoding: HISTOGRAM_ENCODING, unit: HISTOGRAM_UNIT, data: encodeHistogram(hist) },
    autocannon_latency_ms: [{ p50: ac.latency.p50, p90: ac.latency.p90, p99: ac.latency.p99, p999: (ac.latency as unknown as Record<string, number>).p99_9 ?? 0, max: ac.latency.max }],
    ...(scenario.check429Contract ? { contract } : {}),
    ...(recovery ? { recovery } : {}),
    notes,
  };
  const thresholds = opts.thresholds ?? {};
  return { ...base, thresholds, verdict: evaluate(base, thresholds) };
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

export function countsFrom(status: Record<string, number>, transport: number, timeouts: number, errorKinds: Record<string, number>, expectedNon2xx: number[]): Counts {
  const c: Counts = { attempts: 0, responses: 0, '2xx': 0, '3xx': 0, '4xx': 0, '429': 0, '5xx': 0, other: 0, timeouts, transport_errors: transport, errors: 0, status, error_kinds: errorKinds };
  let unexpected = 0;
  for (const [code, n] of Object.entries(status)) {
    const s = Number(code);
    c.responses += n;
    if (s === 429) c['429'] += n;
    else if (s >= 200 && s < 300) c['2xx'] += n;
    else if (s >= 300 && s < 400) c['3xx'] += n;
    else if (s >= 400 && s < 500) c['4xx'] += n;
    else if (s >= 500 && s < 600) c['5xx'] += n;
    else c.other += n;
    if (!(s >= 200 && s < 300) && !expectedNon2xx.includes(s)) unexpected += n;
  }
  c.attempts = c.responses + transport + timeouts;
  c.errors = unexpected + transport + timeouts;
  return c;
}

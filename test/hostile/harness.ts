// Runs the whole packaged suite (runConformance, every check) against the embedded reference behind a
// hostile proxy, with a small budget, and gathers what the hostile tests assert on: unhandled
// rejections, every result that did not pass and every recorded exchange. No wall-time or heap bound:
// both measure the machine and the rest of the suite as much as the run; a hang is the test
// timeout's, and what the client decided (its refusals, budgets, attempts) is in the exchanges.

import { runConformance, type ConformanceResult } from '../../src/api/index.ts';
import type { CheckResult, Exchange } from '../../src/events/index.ts';
import { loadModel } from '../../src/model/index.ts';
import { startReference } from '../../src/reference/index.ts';
import { startHostileProxy, type HostileProxy, type HostileProxyOptions } from './proxy.ts';

/** Per-request budget: small so a hostile answer costs ~1.5 s, not 30 s. */
export const BUDGET_MS = 1500;

export interface HostileRun {
  result?: ConformanceResult;
  error?: unknown;
  /** Wall time of the run, for HOSTILE_DEBUG only (never asserted: it depends on machine load). */
  ms: number;
  unhandled: unknown[];
  proxy: HostileProxy;
  /** Every result that is not a plain pass (fail, blocked, skip). */
  bad: CheckResult[];
  /** Every exchange the run recorded (one per attempt). */
  exchanges: Exchange[];
  /** The reference's secrets (client secrets, signing secrets): none may appear in results or exchanges. */
  secrets: string[];
}

export interface BehindProxyOptions extends Omit<HostileProxyOptions, 'upstream' | 'exempt'> {
  /** Which requests may get a hostile answer: the API (default; never the token endpoint) or the test-control API. */
  side?: 'api' | 'control';
  /**
   * Called with {webhook_base_url} (the engine's receiver) when the run registers it through the
   * control API; a returned promise holds the registration (and so every check) until it settles.
   */
  onWebhookBase?: (url: string) => void | Promise<unknown>;
  /** Per-request budget (default BUDGET_MS). */
  budgetMs?: number;
  /** Called with the engine's JWKS URL when the run registers its test identity provider through the control API. */
  onJwksUrl?: (url: string) => void;
  /** The client's bound on waiting out 429s per request (default: the client's own). */
  rateLimitWaitMs?: number;
  /** Checks at once (default 4, run's own). */
  concurrency?: number;
}

export async function runBehindProxy({ side = 'api', onWebhookBase, onJwksUrl, budgetMs = BUDGET_MS, rateLimitWaitMs, concurrency = 4, ...opts }: BehindProxyOptions): Promise<HostileRun> {
  const model = await loadModel();
  const tokenPath = model.operation('createToken').path;
  // The reference's default ten-second token window, not the embedded run's one second: the split
  // rate-limit check sizes its burst to fit half a window, and a one-second window sends hundreds of
  // token requests at once, which under this harness's 1.5 s budget behind the proxy stall on a
  // loaded machine (a skip, seen in a full run at load 24).
  const reference = await startReference();
  const base = reference.profile.base_url;
  const p = reference.profile;
  const secrets = [...p.clients, ...Object.values(p.special_clients ?? {})].map((c) => c.client_secret).concat([p.s2s_signing_secret, p.user_token_signing_secret].filter((x): x is string => !!x));
  const controlUrl = reference.profile.control_url ?? '';
  if (!controlUrl.startsWith(base)) throw new Error(`the reference's control_url ${controlUrl} is not under its base_url ${base}`);
  const controlPrefix = controlUrl.slice(base.length);
  // The registration path comes from the control model (operation setWebhookBaseUrl), not restated here.
  const paths = Object.entries((model.control as { paths: Record<string, { put?: { operationId?: string } }> }).paths);
  const pathOf = (id: string) => controlPrefix + (paths.find(([, p]) => p.put?.operationId === id)?.[0] ?? '');
  const field = (b: unknown, k: string) => (b && typeof b === 'object' && typeof (b as Record<string, unknown>)[k] === 'string' ? ((b as Record<string, unknown>)[k] as string) : undefined);
  const tapPut: NonNullable<HostileProxyOptions['tapPut']> = [];
  if (onWebhookBase) tapPut.push({ path: pathOf('setWebhookBaseUrl'), onPut: (b) => (field(b, 'base_url') ? onWebhookBase(field(b, 'base_url')!) : undefined) });
  if (onJwksUrl) tapPut.push({ path: pathOf('setIdpConfig'), onPut: (b) => void (field(b, 'jwks_url') && onJwksUrl(field(b, 'jwks_url')!)) });
  const proxy = await startHostileProxy({ ...opts, tapPut, upstream: base, exempt: (p) => (side === 'api' ? p === tokenPath || p.startsWith(controlPrefix) : !p.startsWith(controlPrefix)) });
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => void unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  const began = performance.now();
  let result: ConformanceResult | undefined;
  let error: unknown;
  const exchanges: Exchange[] = [];
  try {
    result = await runConformance({
      profile: { ...reference.profile, base_url: proxy.baseUrl, control_url: proxy.baseUrl + controlPrefix },
      env: {},
      seed: 7,
      timeoutBudgetMs: budgetMs,
      concurrency,
      numRuns: 3,
      checkTimeoutMs: 30_000,
      ...(rateLimitWaitMs !== undefined ? { rateLimitWaitMs } : {}),
      onEvent: (e) => void (e.type === 'exchange' && exchanges.push(e.exchange)),
    });
  } catch (err) {
    error = err;
  } finally {
    await proxy.close();
    await reference.close();
    // Let a late rejection from a destroyed socket surface before we stop listening for it.
    await new Promise((r) => setTimeout(r, 100));
    process.off('unhandledRejection', onUnhandled);
  }
  const ms = performance.now() - began;
  const bad = result?.results.filter((r) => r.verdict !== 'pass') ?? [];
  return { result, error, ms, unhandled, proxy, bad, exchanges, secrets };
}

/** URL paths a result's failure or block mentions (message text and recorded exchanges). */
export function pathsOf(r: CheckResult): string[] {
  const text = [r.failure?.message, r.blocked?.message, r.failure?.exchange?.request.url, r.blocked?.exchange?.request.url].join(' ');
  const urls = [...text.matchAll(/https?:\/\/[^/\s]+(\/[^\s:?"]*)/g)].map((m) => m[1]);
  const lines = [...text.matchAll(/\b(?:GET|POST|PUT|PATCH|DELETE) (\/[^\s:?"]*)/g)].map((m) => m[1]);
  return [...urls, ...lines];
}

/** One line per non-passing result, for assertion messages and HOSTILE_DEBUG. */
export function describeBad(run: HostileRun): string {
  return run.bad
    .map((r) => `${r.checkId} ${r.verdict} cause=${r.failure?.cause ?? ''} rules=${(r.failure?.rules ?? r.blocked?.rules ?? []).join(',')} ${(r.failure?.message ?? r.blocked?.message ?? r.reason ?? '').slice(0, 160)}`)
    .join('\n');
}

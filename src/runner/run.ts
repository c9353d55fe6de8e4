// The runner: selects checks, runs a preflight, starts per-run services, executes checks with
// bounded concurrency (exclusive ones alone, afterwards), and streams events to reporters. It knows
// nothing about specific rules: a check is an id, rule ids and a `run(ctx)`.
// Size: about 350 lines: the run loop, scheduling and the mapping of thrown errors to verdicts; the
// error mapping (failureFromError) is the part to move into its own module next.

import { allowedCheckMs } from './time-limit.ts';
import { AuditFailure, auditResponses, withAudit } from '../checks/audit.ts';
import { randomUUID } from 'node:crypto';
import type { Check, CheckContext, RunServices } from '../checks/types.ts';
import { runWithContext } from '../checks/current.ts';
import { counterexampleFromAssertError } from '../checks/property.ts';
import { isCheckFailure, isSkipSignal, SkipSignal } from '../checks/signals.ts';
import { applyExpectedFailures, decideExit, diffRuns, type ComparableRun, type ExpectedFailures } from '../baseline/index.ts';
import { HttpSession, type CheckHttpClient } from '../client/index.ts';
import { TransportError } from '../client/errors.ts';
import { ConfigError } from '../errors/index.ts';
import type { CheckFailureInfo, CheckResult, Reporter, RootCause, RuleVerdict, RunDiff, RunEvent, RunSummary, ExpectedFailuresOutcome, Unjudged } from '../events/index.ts';
import type { Model, RuleId } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { httpControlAdapter } from '../control/index.ts';
import { coverageOf, minCoverageMessage, ruleVerdicts, summarize } from './coverage.ts';
import { blockedOrOwn, rootCauses, unreadableAnswer, withOutcomes } from './causes.ts';
import { skipReasonFor, type ServiceProblems } from './needs.ts';
import { preflight } from './preflight.ts';
import { randomSeed, deriveSeed } from './seed.ts';
import { notSelectedReason, selectChecks, type Shard } from './select.ts';
import { startServices } from './services.ts';
import { TOOL_VERSION } from './version.ts';

export const RUN_DEFAULTS = {
  concurrency: 4,
  /** fast-check's own default; --runs scales it. */
  numRuns: 100,
  checkTimeoutMs: 120_000,
} as const;

export interface RunOptions {
  profile: ResolvedProfile;
  model: Model;
  /** Run seed; random 32-bit when not given (reported in run-started and the summary). */
  seed?: number;
  shard?: Shard;
  /** Keep only checks marked safe (create nothing, move no money). */
  safe?: boolean;
  /** `--check` patterns: exact ids, prefixes (`errors.token.*`) or globs. */
  checkIds?: string[];
  concurrency?: number;
  numRuns?: number;
  /** Per-request time budget (ms); default the section 8 recommended request timeout (model.requestTimeoutMs()). */
  timeoutBudgetMs?: number;
  /** Per-check time limit (ms); the check's signal aborts and it fails with the cause. */
  checkTimeoutMs?: number;
  /** Stop starting checks after the first failure; the rest are reported skipped. */
  failFast?: boolean;
  /** Services to use as they are; when absent the runner starts and registers its own. */
  services?: RunServices;
  /** Default true. False skips the reachability/credentials preflight (selftests with fake targets). */
  preflight?: boolean;
  /** Cancels the run: running checks are aborted, the rest skipped. */
  signal?: AbortSignal;
  /** Sink for ctx.log lines (the console reporter prints them in verbose mode). */
  onLog?: (checkId: string, message: string) => void;
  /** Max response body size per request (bytes). */
  maxBodyBytes?: number;
  /** Sleep a request may spend waiting out 429s before its check is blocked as RATE_LIMITED (RETRY_DEFAULTS.maxWaitMs). */
  rateLimitWaitMs?: number;
  /** --control-adapter FILE (overrides profile.control_adapter). */
  controlAdapterFile?: string;
  /** --webhook-listen host:port (overrides profile.webhooks.listen). */
  webhookListen?: string;
  /** Environment for the adapter's {{env.NAME}} placeholders (default process.env). */
  env?: Record<string, string | undefined>;
  /** --min-coverage P: the run fails (exit 1) when fewer than P of the testable rules were exercised. */
  minCoverage?: number;
  /** Warnings (ctx.warn) fail the run too. */
  strict?: boolean;
  /** A previous run to compare with (run --baseline): the diff goes into run-finished and every report. */
  baseline?: ComparableRun;
  /** Listed failures do not fail the run; rotten entries do (run --expected-failures). */
  expectedFailures?: ExpectedFailures;
}

export interface RunOutcome {
  seed: number;
  results: CheckResult[];
  rules: RuleVerdict[];
  summary: RunSummary;
  rootCauses: RootCause[];
  diff?: RunDiff;
  expected?: ExpectedFailuresOutcome;
  /** 0 when no check failed or was blocked (bar expected failures), 1 otherwise; see exitReasons. */
  exitCode: 0 | 1;
  exitReasons: string[];
  /** Why --min-coverage failed the run, when it did (also among exitReasons). */
  coverageProblem?: string;
}

class CheckTimeout extends Error {
  constructor(ms: number) {
    super(`check exceeded its ${ms} ms time limit`);
    this.name = 'CheckTimeout';
  }
}

/** Serialises reporter calls so every reporter sees events in emission order. */
class EventBus {
  private chain: Promise<void> = Promise.resolve();
  private error: unknown;
  constructor(private readonly reporters: Reporter[]) {}
  emit(event: RunEvent): void {
    for (const r of this.reporters) {
      this.chain = this.chain.then(() => r.onEvent(event)).catch((err) => {
        this.error ??= err;
      });
    }
  }
  async drain(): Promise<void> {
    await this.chain;
    if (this.error) throw this.error;
  }
}

async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(workers);
}

function failureFromError(err: unknown, check: Check, http: CheckHttpClient, mask: (s: string) => string, timedOut: CheckTimeout | undefined, model?: Model, controlUrl?: string): CheckFailureInfo {
  if (timedOut) {
    return { message: timedOut.message, rules: check.rules, cause: 'CHECK_TIMEOUT', exchange: http.lastExchange };
  }
  if (isCheckFailure(err)) {
    // The contract says failure rules are a subset of the check's rules; an assertion naming other
    // rules (a helper reused across checks) falls back to the check's own.
    // An audit failure (src/checks/audit.ts) names a rule of every answer the check need not cover: kept as named.
    const named = err instanceof AuditFailure ? ((err.rules ?? []) as RuleId[]) : (err.rules ?? []).filter((r): r is RuleId => (check.rules as readonly string[]).includes(r));
    const info: CheckFailureInfo = { message: mask(err.message), rules: named.length ? named : check.rules, rulesNamed: named.length > 0 };
    if (!named.length && err.rules?.length) info.namedOutsideCheck = true;
    const op = (err as { operation?: unknown }).operation;
    if (typeof op === 'string') info.operation = op;
    if (err.counterexample) info.counterexample = mask(err.counterexample);
    // Expected values come from the model (no secrets; masking would garble rows like "Bearer token is ...").
    if (err.comparison) info.comparison = err.comparison.map((c) => ({ ...c, actual: mask(c.actual) }));
    const exchange = (err.response && http.exchangeOf(err.response)) ?? http.lastExchange;
    if (exchange) info.exchange = exchange;
    return info;
  }
  if (err instanceof TransportError) {
    // A target that answers too slowly broke the section 8 budget, and a body nested too deep or in a
    // coding that does not decode broke "all bodies are JSON": not the schema or state rule the check
    // was about to look at.
    // The test-control API is the sandbox's, not the partner API: its faults break no partner rule.
    const onControl = !!controlUrl && err.url.startsWith(controlUrl);
    const named = onControl ? undefined : (err.ruleId ?? (err.code === 'TIMEOUT' ? model?.limits.request_timeout?.id : undefined));
    const budgetRule = named && model?.rules.some((r) => r.id === named) ? named : undefined;
    if (budgetRule) return { message: `transport failure: ${mask(err.message)}`, rules: [budgetRule], rulesNamed: true, cause: err.code, exchange: http.lastExchange };
    return { message: `transport failure: ${mask(err.message)}`, rules: check.rules, cause: err.code, exchange: http.lastExchange };
  }
  const counterexample = counterexampleFromAssertError(err);
  if (counterexample) {
    return { message: 'property failed', rules: check.rules, counterexample: mask(counterexample), exchange: http.lastExchange };
  }
  // Anything else is a bug in the check or an unexpected target answer the check did not handle.
  const message = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return { message: `check error: ${mask(message)}`, rules: check.rules, cause: 'CHECK_ERROR', exchange: http.lastExchange };
}

/** Runs the checks against the target and streams events to the reporters. */
export async function runChecks(options: RunOptions, checks: Check[], reporters: Reporter[]): Promise<RunOutcome> {
  const concurrency = options.concurrency ?? RUN_DEFAULTS.concurrency;
  const numRuns = options.numRuns ?? RUN_DEFAULTS.numRuns;
  // A check that waits for a webhook on the target's own schedule must get the profile's wait plus
  // slack, or the per-check limit would turn a slow-but-conforming target into a failure.
  const webhookWait = options.profile.webhook_timeout_ms;
  const checkTimeoutMs = options.checkTimeoutMs
    ?? (webhookWait !== undefined ? Math.max(RUN_DEFAULTS.checkTimeoutMs, webhookWait + 30_000) : RUN_DEFAULTS.checkTimeoutMs);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new ConfigError(`concurrency must be a positive integer, got ${concurrency}`);
  if (!Number.isInteger(numRuns) || numRuns < 1) throw new ConfigError(`runs must be a positive integer, got ${numRuns}`);
  const seed = (options.seed ?? randomSeed()) >>> 0;
  const { profile, model } = options;
  const ids = new Set<string>();
  for (const c of checks) {
    if (ids.has(c.id)) throw new ConfigError(`two checks share the id ${c.id}`);
    ids.add(c.id);
  }
  const selection = { safe: options.safe, checkIds: options.checkIds, shard: options.shard };
  const selected = selectChecks(checks, selection);
  if (options.checkIds?.length && selected.length === 0 && !options.shard) {
    throw new ConfigError(`--check ${options.checkIds.join(', ')} matches no check${options.safe ? ' kept by --safe' : ''}`);
  }
  const notSelected = new Map(checks.filter((c) => !selected.includes(c)).map((c) => [c.id, notSelectedReason(c, selection)]));

  const session = new HttpSession({ profile, model, timeoutBudgetMs: options.timeoutBudgetMs ?? model.requestTimeoutMs(), maxBodyBytes: options.maxBodyBytes, ...(options.rateLimitWaitMs !== undefined ? { retry: { maxWaitMs: options.rateLimitWaitMs } } : {}) });
  const bus = new EventBus(reporters);
  let servicesHandle: { close(): Promise<void> } | undefined;
  let receiver: { stats(): NonNullable<RunSummary['webhooks']> } | undefined;
  if (options.minCoverage !== undefined && !(options.minCoverage >= 0 && options.minCoverage <= 1)) {
    throw new ConfigError(`--min-coverage must be a share from 0 to 1 (e.g. 0.9), got ${options.minCoverage}`);
  }
  try {
    if (options.preflight !== false) await preflight(session);
    let services: RunServices = options.services ?? {};
    // Callers that bring their own services still get our control API when the profile names one.
    if (options.services && !services.control && profile.control_url) services = { ...services, control: httpControlAdapter(model) };
    let problems: ServiceProblems = {};
    if (!options.services) {
      const want = {
        idp: selected.some((c) => c.needs?.includes('idp') || c.needs?.includes('idp_tokens')),
        webhooks: selected.some((c) => c.needs?.includes('webhooks')),
      };
      const started = await startServices(session, want, { controlAdapterFile: options.controlAdapterFile, webhookListen: options.webhookListen, env: options.env });
      servicesHandle = started;
      receiver = started.webhooks;
      services = started.services;
      problems = started.problems;
    }

    const startedAt = new Date();
    bus.emit({
      type: 'run-started',
      runId: randomUUID(),
      seed,
      target: profile.base_url,
      targetName: profile.name ?? profile.base_url,
      checks: selected.length,
      ...(options.shard ? { shard: `${options.shard.index}/${options.shard.total}` } : {}),
      safe: !!options.safe,
      startedAt: startedAt.toISOString(),
      toolVersion: TOOL_VERSION,
    });

    const results = new Map<string, CheckResult>();
    let stopReason: string | undefined;
    const runOne = async (check: Check): Promise<void> => {
      const checkSeed = deriveSeed(seed, check.id);
      const began = performance.now();
      bus.emit({ type: 'check-started', checkId: check.id, title: check.title });
      const base = { checkId: check.id, title: check.title, area: check.area, section: check.section, rules: check.rules, seed: checkSeed };
      const finish = (r: CheckResult) => {
        results.set(check.id, r);
        bus.emit({ type: 'check-finished', result: r });
        if ((r.verdict === 'fail' || r.verdict === 'blocked') && options.failFast) stopReason ??= `not run: --fail-fast stopped the run after ${check.id} failed`;
      };
      const early = stopReason ?? (options.signal?.aborted ? 'not run: the run was cancelled' : undefined) ?? skipReasonFor(check, profile, model, services, problems);
      if (early) return finish({ ...base, verdict: 'skip', reason: early, durationMs: 0, requests: 0 });

      const controller = new AbortController();
      let timedOut: CheckTimeout | undefined;
      const onRunAbort = () => controller.abort(options.signal?.reason);
      options.signal?.addEventListener('abort', onRunAbort, { once: true });
      const http = session.client(check.id, { signal: controller.signal, onExchange: (exchange) => bus.emit({ type: 'exchange', exchange }) });
      // The limit grows with the time spent waiting on slow answers (src/runner/time-limit.ts).
      let timer: ReturnType<typeof setTimeout>;
      const arm = (ms: number) => {
        timer = setTimeout(() => {
          const elapsed = performance.now() - began;
          const allowed = allowedCheckMs(checkTimeoutMs, http.slowMs);
          if (elapsed + 50 < allowed) return arm(allowed - elapsed);
          timedOut = new CheckTimeout(Math.round(allowed));
          controller.abort(timedOut);
        }, ms);
      };
      arm(checkTimeoutMs);
      const warnings: string[] = [];
      const unjudged: Unjudged[] = [];
      const withWarnings = (r: CheckResult): CheckResult => ({ ...r, ...(warnings.length ? { warnings: [...warnings] } : {}), ...(unjudged.length ? { unjudged: [...unjudged] } : {}) });
      const ctx: CheckContext = {
        model,
        profile,
        http,
        seed: checkSeed,
        numRuns,
        signal: controller.signal,
        services,
        safeMode: !!options.safe,
        skip(reason: string): never {
          throw new SkipSignal(reason);
        },
        log: (message) => options.onLog?.(check.id, session.mask(message)),
        warn: (message) => {
          const masked = session.mask(String(message));
          warnings.push(masked);
          bus.emit({ type: 'warning', checkId: check.id, message: masked });
        },
        couldNotJudge: (what, missing) => {
          unjudged.push({ what: session.mask(String(what)), missing: session.mask(String(missing)) });
          options.onLog?.(check.id, session.mask(`could not judge: ${what} (missing: ${missing})`));
        },
      };
      // Race the body against the abort so a check that ignores its signal still ends on time.
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
      });
      aborted.catch(() => undefined);
      try {
        await Promise.race([runWithContext(ctx, () => check.run(ctx)), aborted]);
        // Every answer the check received, not only those it asserted on (src/checks/audit.ts).
        const audit = auditResponses(model, http.observed());
        if (audit) throw audit;
        finish(withWarnings({ ...base, verdict: 'pass', durationMs: Math.round(performance.now() - began), requests: http.count }));
      } catch (err) {
        const durationMs = Math.round(performance.now() - began);
        const prerequisite = timedOut ? undefined : (blockedOrOwn(err, check, model, http, (s) => session.mask(s)) ?? unreadableAnswer(err, http, (s) => session.mask(s)));
        if (!timedOut && isSkipSignal(err)) {
          finish(withWarnings({ ...base, verdict: 'skip', reason: session.mask(err.reason), durationMs, requests: http.count }));
        } else if (!timedOut && options.signal?.aborted) {
          finish(withWarnings({ ...base, verdict: 'skip', reason: 'not completed: the run was cancelled', durationMs, requests: http.count }));
        } else if (prerequisite && 'blocked' in prerequisite) {
          finish(withWarnings({ ...base, verdict: 'blocked', blocked: prerequisite.blocked, durationMs, requests: http.count }));
        } else {
          const own = prerequisite?.failure ?? failureFromError(err, check, http, (s) => session.mask(s), timedOut, model, profile.control_url);
          // The answers of a failing check are audited too: a bad answer it received keeps its own rule.
          const failure = withAudit(own, auditResponses(model, http.observed()), (s) => session.mask(s));
          finish(withWarnings({ ...base, verdict: 'fail', failure, durationMs, requests: http.count }));
        }
      } finally {
        clearTimeout(timer!);
        options.signal?.removeEventListener('abort', onRunAbort);
        if (!controller.signal.aborted) controller.abort(new Error('check finished'));
      }
    };

    await pool(selected.filter((c) => !c.exclusive), concurrency, runOne);
    // Exclusive checks move shared state (clock, rate limiter): one at a time, nothing alongside.
    for (const check of selected.filter((c) => c.exclusive)) await runOne(check);

    const ordered = selected.map((c) => results.get(c.id)!);
    const rules = withOutcomes(ruleVerdicts(model.rules, ordered, notSelected, checks), ordered);
    const causes = rootCauses(ordered);
    const summary = summarize(ordered, rules, Date.now() - startedAt.getTime(), causes);
    const diff = options.baseline ? diffRuns(options.baseline, { checks: ordered, rules }) : undefined;
    const expected = options.expectedFailures ? applyExpectedFailures(options.expectedFailures, ordered, ids) : undefined;
    summary.coverage = coverageOf(rules, ordered, notSelected, options.minCoverage);
    if (receiver) summary.webhooks = receiver.stats();
    const coverageProblem = minCoverageMessage(summary.coverage);
    const exit = decideExit({ results: ordered, expected, strict: options.strict });
    if (coverageProblem) exit.reasons.push(coverageProblem);
    if (coverageProblem) exit.code = 1;
    bus.emit({
      type: 'run-finished',
      summary,
      rules,
      results: ordered,
      finishedAt: new Date().toISOString(),
      rootCauses: causes,
      ...(diff ? { diff } : {}),
      ...(expected ? { expected } : {}),
      exit,
    });
    await bus.drain();
    for (const r of reporters) await r.close?.();
    return { seed, results: ordered, rules, summary, rootCauses: causes, diff, expected, exitCode: exit.code, exitReasons: exit.reasons, ...(coverageProblem ? { coverageProblem } : {}) };
  } finally {
    await servicesHandle?.close();
    await session.close();
  }
}

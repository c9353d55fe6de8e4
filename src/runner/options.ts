// What a caller of runChecks can set, what it gets back, and the defaults and bounds of the run-wide
// numbers. Resolved here once so the run loop only ever sees valid values.

import type { ComparableRun, ExpectedFailures } from '../baseline/index.ts';
import type { Check, RunServices } from '../checks/types.ts';
import type { Conclusion } from '../errors/index.ts';
import type { CheckResult, ExpectedFailuresOutcome, RootCause, RuleVerdict, RunDiff, RunSummary } from '../events/index.ts';
import type { Model } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import type { Shard } from './select.ts';
import { RUN_DEFAULTS } from '../options/defaults.ts';
import { qualifyRunLimits } from '../options/run.ts';

export { RUN_DEFAULTS };

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
  /** Runs in flight at once for an independent property (CheckContext.propertyBatch); default PROPERTY_BATCH. */
  propertyBatch?: number;
  /** Per-request time budget (ms); default the section 8 recommended request timeout (model.requestTimeoutMs()). */
  timeoutBudgetMs?: number;
  /** Per-check time limit (ms); the check's signal aborts and it fails with the cause. */
  checkTimeoutMs?: number;
  /** Stop starting checks after the first failure; the rest are reported skipped. */
  failFast?: boolean;
  /** Services to use as they are; when absent the runner starts and registers its own. */
  services?: RunServices;
  /**
   * Checks whose needs decide which services the runner starts (IdP, webhook receiver); default the
   * checks it runs. The selftest gives every check, so a run narrowed to a few (src/mutants/check-selection.ts)
   * has the services the full run has, and a check that judges webhooks when a receiver is up judges them.
   */
  servicesFor?: readonly Check[];
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
  /** 0 when no check failed or was blocked (bar expected failures), 1 otherwise, 4 when nothing was judged (every check skipped, or none selected); see exitReasons. */
  exitCode: 0 | 1 | 4;
  /** The run's conclusion: `inconclusive` when it judged nothing and found nothing to fail. */
  verdict: Conclusion;
  exitReasons: string[];
  /** Why --min-coverage failed the run, when it did (also among exitReasons). */
  coverageProblem?: string;
}

/** The run-wide numbers, defaulted and checked (ConfigError names the bad value). */
export interface RunLimits {
  concurrency: number;
  numRuns: number;
  checkTimeoutMs: number;
  propertyBatch?: number;
}

export function runLimits(options: RunOptions): RunLimits {
  // Bounds and defaults from the run mode's options module; every problem at once.
  const { concurrency, numRuns, propertyBatch } = qualifyRunLimits(options);
  // A check that waits for a webhook on the target's own schedule must get the profile's wait plus
  // slack, or the per-check limit would turn a slow-but-conforming target into a failure.
  const webhookWait = options.profile.webhook_timeout_ms;
  const checkTimeoutMs = options.checkTimeoutMs
    ?? (webhookWait !== undefined ? Math.max(RUN_DEFAULTS.checkTimeoutMs, webhookWait + 30_000) : RUN_DEFAULTS.checkTimeoutMs);
  return { concurrency, numRuns, checkTimeoutMs, ...(propertyBatch !== undefined ? { propertyBatch } : {}) };
}

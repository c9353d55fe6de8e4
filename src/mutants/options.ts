// The selftest mode's options, qualified once (as src/load/options.ts does for load): every default
// and bound of `selftest` is written here. The CLI flags and the config file (seed, concurrency,
// timeout budget) reach qualifySelftest, which reports every problem at once; runSelftest applies
// the same defaults for library callers that leave an option out.

import { NON_NEGATIVE_INT } from '../options/numbers.ts';
import { RUN_BOUNDS } from '../options/run.ts';
import { OptionProblems, type FlagBounds } from '../options/problems.ts';
import { SELFTEST_RATE_LIMIT } from './rate-limit.ts';
import type { SelftestProfile } from './run-variant.ts';

export const SELFTEST_DEFAULTS = {
  /** Worker threads (one event loop each): the runs are mostly waiting, the checks are CPU-bound. */
  workers: 2,
  /** Variants run at once over all workers. */
  concurrency: 6,
  /** Short per-request budget so the stalling variant stays fast (the spec's recommended timeout is the ceiling). */
  timeoutBudgetMs: 3000,
  seed: 1,
  /** The built-in profile with the control API, secrets and IdP. */
  profile: 'full' as SelftestProfile,
  /** Checks run at once inside one variant run. */
  checkConcurrency: 4,
  /**
   * Independent property runs in flight at once inside one check (CheckContext.propertyBatch; a run's
   * default is 10). The variant runs share two threads with their reference servers: ten at once in
   * each of a dozen checks multiplies the requests in flight when a thread stalls (measured under load:
   * 13 checks of benign.webhooks.late timed out in one stall, 2 with sequential runs). Two keeps the
   * batched path exercised; the budget itself discounts stalls (src/client/stall.ts). Verdicts do not
   * depend on it (src/checks/property.ts).
   */
  propertyBatch: 2,
  /** Token-endpoint limit for every run but those about the limit itself (rate-limit.ts). */
  rateLimit: SELFTEST_RATE_LIMIT,
} as const;

/** Every bound of a selftest option: the one place each range is written (shared kinds from src/options/numbers.ts). */
export const SELFTEST_BOUNDS = {
  workers: { flag: 'workers', ...NON_NEGATIVE_INT },
  // The flags selftest shares with run keep run's bounds.
  concurrency: RUN_BOUNDS.concurrency,
  timeoutBudgetMs: RUN_BOUNDS.timeoutBudgetMs,
  seed: RUN_BOUNDS.seed,
} as const satisfies Record<string, FlagBounds>;

export interface SelftestValues {
  workers?: unknown;
  concurrency?: unknown;
  timeoutBudgetMs?: unknown;
  seed?: unknown;
}

export interface QualifiedSelftest {
  workers: number;
  concurrency: number;
  timeoutBudgetMs: number;
  seed: number;
}

/** Defaults and bounds of one selftest; one ConfigError names every problem. */
export function qualifySelftest(v: SelftestValues): QualifiedSelftest {
  const p = new OptionProblems();
  const b = SELFTEST_BOUNDS;
  const d = SELFTEST_DEFAULTS;
  const out = {
    workers: p.num(b.workers, v.workers) ?? d.workers,
    concurrency: p.num(b.concurrency, v.concurrency) ?? d.concurrency,
    timeoutBudgetMs: p.num(b.timeoutBudgetMs, v.timeoutBudgetMs) ?? d.timeoutBudgetMs,
    seed: p.num(b.seed, v.seed) ?? d.seed,
  };
  p.throwIfAny();
  return out;
}

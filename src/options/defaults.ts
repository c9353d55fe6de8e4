// The defaults of the options the CLI, the library and certify share, declared once. Commands resolve
// their flags against these at the edge (src/options/run-options.ts, the command files); the library
// applies the same constants for callers that leave an option out, so both read one value.

/** Servers the toolkit starts (serve, audit, the webhook receiver, the IdP, metrics): loopback, any free port. */
export const LISTEN_DEFAULTS = { host: '127.0.0.1', port: 0 } as const;

/** Where reports go when neither --report-dir nor the config file says. */
export const REPORT_DIRS = { run: 'baas-conform-report', audit: 'baas-conform-audit' } as const;

/** The conformance run (runChecks, runConformance, compare, certify). */
export const RUN_DEFAULTS = {
  /**
   * Checks in flight at once. A run across a WAN is round trips, not CPU: its wall time is the sum of
   * the checks' sequential chains over this, or the longest chain (suites/costs.ts); 24 reaches the
   * longest chain on the reference behind 50 ms (`BENCH_ONLY=wan npm run bench`), and on loopback the
   * run costs the same CPU as with 4.
   */
  concurrency: 24,
  /** fast-check's own default; --runs scales it. */
  numRuns: 100,
  checkTimeoutMs: 120_000,
  /**
   * --rate-limit-wait: sleep one request may spend waiting out 429s before its check is blocked as
   * RATE_LIMITED. A rate-limit window of a minute (a common sandbox setting) is waited out.
   */
  rateLimitWaitMs: 60_000,
} as const;

/**
 * profile.webhook_timeout_ms when the profile leaves it out: how long a check waits for a webhook the
 * target emits on its own schedule (20 s when the control API settled the event at once, else 90 s),
 * and the range a given value is held to (1 s..10 min).
 */
export const WEBHOOK_WAIT_DEFAULTS = { settledMs: 20_000, unsettledMs: 90_000, minMs: 1000, maxMs: 600_000 } as const;

/** A load run: its defaults sit with its bounds in the load mode's options module. */
export { LOAD_DEFAULTS } from '../load/options.ts';

/** selftest: the user-facing part (src/mutants SELFTEST_DEFAULTS extends it and is the one public table). */
export const SELFTEST_OPTION_DEFAULTS = {
  /** Worker threads (one event loop each): the runs are mostly waiting, the checks are CPU-bound. */
  workers: 2,
  /** Variants run at once over all workers. */
  concurrency: 6,
  /** Short per-request budget so the stalling variant stays fast (the spec's recommended timeout is the ceiling). */
  timeoutBudgetMs: 3000,
  seed: 1,
  /** The built-in profile with the control API, secrets and IdP. */
  profile: 'full',
} as const;

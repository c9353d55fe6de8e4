// The defaults of the options the CLI, the library and certify share, declared once. Commands resolve
// their flags against these at the edge (src/options/run-options.ts, the command files); the library
// applies the same constants for callers that leave an option out, so both read one value.

/** Servers the toolkit starts (serve, audit, the webhook receiver, the IdP, metrics): loopback, any free port. */
export const LISTEN_DEFAULTS = { host: '127.0.0.1', port: 0 } as const;

/** Where reports go when neither --report-dir nor the config file says. */
export const REPORT_DIRS = { run: 'baas-conform-report', audit: 'baas-conform-audit' } as const;

/** The conformance run (runChecks, runConformance, compare, certify). */
export const RUN_DEFAULTS = {
  concurrency: 4,
  /** fast-check's own default; --runs scales it. */
  numRuns: 100,
  checkTimeoutMs: 120_000,
} as const;

/** A load run (its seed drives the poisson schedule). */
export const LOAD_DEFAULTS = { seed: 1 } as const;

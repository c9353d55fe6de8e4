// The conformance run's options, qualified once (in the manner of fast-check's QualifiedParameters and
// k6's Validate()): every default and bound of `run` is written here, and compare, certify, replay and
// selftest read the shared flags through the same table. The flags and the config file reach
// qualifyRunValues (run-options.ts resolves which of the two gives a value); library callers of
// runChecks reach runLimits (src/runner), which reads the same bounds. Every problem is reported at once.

import { POSITIVE_INT, SEED_BOUNDS, SHARE_BOUNDS, TIMEOUT_BUDGET_BOUNDS } from './numbers.ts';
import { OptionProblems, type FlagBounds } from './problems.ts';
import { parseShard, type Shard } from './shard.ts';

/** The conformance run's engine defaults (runChecks, runConformance, compare, certify; the client's 429 wait). */
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

/** What `run` writes: the report directory, its files, and the formats --report adds. */
export const RUN_REPORT_DEFAULTS = {
  dir: 'baas-conform-report',
  files: { json: 'results.json', junit: 'junit.xml', html: 'report.html', ctrf: 'ctrf.json', allure: 'allure-results' },
  /** Extra report formats --report adds (results.json, junit.xml and report.html are always written). */
  reports: ['ctrf', 'allure'],
} as const;

/** Every bound of a run option, flag or config key or library: the one place each range is written. */
export const RUN_BOUNDS = {
  seed: { flag: 'seed', ...SEED_BOUNDS },
  concurrency: { flag: 'concurrency', ...POSITIVE_INT },
  numRuns: { flag: 'runs', ...POSITIVE_INT },
  timeoutBudgetMs: { flag: 'timeout-budget', ...TIMEOUT_BUDGET_BOUNDS },
  checkTimeoutMs: { flag: 'check-timeout', ...POSITIVE_INT },
  rateLimitWaitMs: { flag: 'rate-limit-wait', ...POSITIVE_INT },
  minCoverage: { flag: 'min-coverage', ...SHARE_BOUNDS },
  historyKeep: { flag: 'history-keep', integer: true, min: 1, what: 'a whole number of runs, 1 or more' },
  propertyBatch: { flag: 'property-batch', ...POSITIVE_INT },
} as const satisfies Record<string, FlagBounds>;

/** The run's values as flags or the config file give them (unknown until qualified). */
export interface RunValues {
  seed?: unknown;
  shard?: unknown;
  concurrency?: unknown;
  numRuns?: unknown;
  timeoutBudgetMs?: unknown;
  checkTimeoutMs?: unknown;
  rateLimitWaitMs?: unknown;
  minCoverage?: unknown;
  historyKeep?: unknown;
  otlp?: unknown;
}

/** The run's values within their bounds; absent stays absent (the library applies RUN_DEFAULTS). */
export interface QualifiedRunValues {
  seed?: number;
  shard?: Shard;
  concurrency?: number;
  numRuns?: number;
  timeoutBudgetMs?: number;
  checkTimeoutMs?: number;
  rateLimitWaitMs?: number;
  minCoverage?: number;
  /** Runs `run --history` keeps (absent: HISTORY_DEFAULTS.keep, src/history). */
  historyKeep?: number;
  otlp?: string;
}

const defined = <K extends string, V>(key: K, v: V | undefined): { [P in K]?: V } => (v === undefined ? {} : ({ [key]: v } as { [P in K]: V }));

/** Bounds of every run value at once: one ConfigError names every problem. */
export function qualifyRunValues(v: RunValues): QualifiedRunValues {
  const p = new OptionProblems();
  const b = RUN_BOUNDS;
  const shard = p.attempt(() => parseShard(v.shard), undefined);
  const otlp = v.otlp === undefined || v.otlp === null ? undefined : String(v.otlp);
  p.check(otlp === undefined || /^https?:\/\//i.test(otlp), `--otlp must be an http(s) URL of an OTLP/HTTP traces endpoint (e.g. http://127.0.0.1:4318/v1/traces), got ${JSON.stringify(otlp)}`);
  const out: QualifiedRunValues = {
    ...defined('seed', p.num(b.seed, v.seed)),
    ...defined('shard', shard),
    ...defined('concurrency', p.num(b.concurrency, v.concurrency)),
    ...defined('numRuns', p.num(b.numRuns, v.numRuns)),
    ...defined('timeoutBudgetMs', p.num(b.timeoutBudgetMs, v.timeoutBudgetMs)),
    ...defined('checkTimeoutMs', p.num(b.checkTimeoutMs, v.checkTimeoutMs)),
    ...defined('rateLimitWaitMs', p.num(b.rateLimitWaitMs, v.rateLimitWaitMs)),
    ...defined('minCoverage', p.num(b.minCoverage, v.minCoverage)),
    ...defined('historyKeep', p.num(b.historyKeep, v.historyKeep)),
    ...defined('otlp', otlp),
  };
  p.throwIfAny();
  return out;
}

/** The numbers a library caller of runChecks (compare, certify, selftest too) may set; bounds: RUN_BOUNDS. */
export interface RunLimitValues {
  concurrency?: number;
  numRuns?: number;
  propertyBatch?: number;
  timeoutBudgetMs?: number;
  checkTimeoutMs?: number;
  rateLimitWaitMs?: number;
  minCoverage?: number;
}

/** A run's engine numbers as runChecks takes them (library callers too): defaults applied, the rest bounded, every problem at once. */
export function qualifyRunLimits(v: RunLimitValues): { concurrency: number; numRuns: number; propertyBatch?: number } {
  const p = new OptionProblems();
  const concurrency = p.num(RUN_BOUNDS.concurrency, v.concurrency ?? RUN_DEFAULTS.concurrency) ?? RUN_DEFAULTS.concurrency;
  const numRuns = p.num(RUN_BOUNDS.numRuns, v.numRuns ?? RUN_DEFAULTS.numRuns) ?? RUN_DEFAULTS.numRuns;
  const propertyBatch = p.num(RUN_BOUNDS.propertyBatch, v.propertyBatch);
  // Defaulted where they are used (the model's request timeout, the webhook wait); bounded here.
  for (const key of ['timeoutBudgetMs', 'checkTimeoutMs', 'rateLimitWaitMs', 'minCoverage'] as const) p.num(RUN_BOUNDS[key], v[key]);
  p.throwIfAny();
  return { concurrency, numRuns, ...defined('propertyBatch', propertyBatch) };
}

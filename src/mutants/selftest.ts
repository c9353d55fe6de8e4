// Selftest: proves the toolkit catches non-conformance. The unmodified reference (baseline) and every
// mutant variant each get a fresh reference on loopback (run-variant.ts) with every check run against
// it, but a faulty variant only with the checks that can name its rule (check-selection.ts), spread
// over worker threads so every core works (workers.ts, in the lanes of schedule.ts). Scoring
// (scoring.ts): a faulty variant counts as caught only when a failing check's own assertion names a
// rule it breaks and that check passes on the baseline; any failing or blocked check on a benign
// variant or on the baseline is a false positive.

import type { Check } from '../checks/types.ts';
import { CancelledError } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import type { RateLimitOptions } from '../reference/index.ts';
import { mutationCoverage } from './mutation-coverage.ts';
import { runsToRedo, type Rerun } from './out-of-time.ts';
import { SELFTEST_DEFAULTS } from './options.ts';
import { buildMutantBank, MUTANT_BANK, PENDING_BANK } from './registry.ts';
import { BASELINE_ID, runVariant, type RunContext, type RunRaw, type SelftestProfile } from './run-variant.ts';
import { busyRuns, CPU_BOUND_NICE, runPool, WAITING_AT_ONCE, waitingRuns } from './schedule.ts';
import { scoreSelftest, type Score, type ScoredRun } from './scoring.ts';
import type { MutantVariant } from './variant.ts';
import { startWorkerPool, type WorkerPool } from './workers.ts';

export { BASELINE_ID, type SelftestProfile } from './run-variant.ts';
/** Every default of selftest, with its bounds: src/mutants/options.ts. */
export { SELFTEST_DEFAULTS };

export type { FailingCheck, FalsePositive } from './scoring.ts';

export interface VariantOutcome extends ScoredRun {
  description: string;
  /** Passing checks with assertions they could not judge, and the services missing. */
  unjudgedChecks: RunRaw['unjudgedChecks'];
  /** Checks skipped in this run (a separate count: a skip is neither a pass nor a kill). */
  skipped: number;
  /** Checks run: every check, or those that can name a faulty variant's rule (check-selection.ts). */
  checksRun: number;
  durationMs: number;
}

export interface SelftestResult extends Omit<Score, 'baseline' | 'variants'> {
  seed: number;
  timeoutBudgetMs: number;
  concurrency: number;
  workers: number;
  profile: SelftestProfile;
  checks: number;
  /** Every check ran on every variant (--all-checks); else faulty variants ran the checks that can name their rule. */
  allChecks: boolean;
  baseline: VariantOutcome;
  variants: VariantOutcome[];
  /** Mutation coverage by rule over this run: testable rules with a caught faulty variant, and the rest. */
  ruleCoverage: RuleCoverage;
  /**
   * Uncaught faulty variants every check of whose rule skipped in that run, or passed with an
   * assertion it could not judge (ctx.couldNotJudge): the profile (minimal: no control API, no
   * secrets, no receiver) hides the fault. Under the minimal profile they do not fail the run.
   */
  hiddenBySkips: string[];
  /** The same variants, each with the missing services that hid it (skip reasons, could-not-judge services). */
  hidden: { variant: string; missing: string[] }[];
  /**
   * Uncaught faulty variants on which no check failed although a check of their rule ran and judged
   * everything it asserts: never excused, whatever the profile (a hole in the checks, not in the profile).
   */
  silentlyPassed: string[];
  /**
   * Runs done a second time because they did not score as they should and a request or check ran out
   * of time (out-of-time.ts): the first run's time-outs, and how the second run scored (the one counted).
   */
  rerunAfterTimeout: Rerun[];
  durationMs: number;
}

export interface RuleCoverage {
  testable: number;
  /** Testable rules broken by a faulty variant of this run that was caught. */
  caught: number;
  /** Testable rules with no caught variant in this run: why (recorded reason, pending variants, not run). */
  without: { rule: string; why: string }[];
}

function ruleCoverage(model: Model, outcomes: VariantOutcome[]): RuleCoverage {
  const faulty = outcomes.filter((o) => o.kind === 'faulty');
  const caught = new Set(faulty.filter((o) => o.ok).flatMap((o) => o.breaks));
  const ran = new Set(faulty.flatMap((o) => o.breaks));
  const cov = mutationCoverage(model);
  const testable = model.rules.filter((r) => r.testable);
  const without = testable
    .filter((r) => !caught.has(r.id))
    .map((r) => {
      const m = cov.get(r.id)!;
      const why = m.reason
        ? `no variant: ${m.reason}`
        : ran.has(r.id)
          ? `variants not caught: ${m.variants.join(', ')}`
          : m.variants.length
            ? `not run here (${m.variants.join(', ')})`
            : `pending (no check catches it yet): ${m.pending.join(', ')}`;
      return { rule: r.id, why };
    });
  return { testable: testable.length, caught: testable.length - without.length, without };
}

export type SelftestProgress =
  | { type: 'started'; total: number }
  | { type: 'variant-started'; id: string; index: number; total: number }
  | { type: 'variant-finished'; outcome: VariantOutcome; done: number; total: number };

export interface SelftestOptions {
  /**
   * Variants to run (default: the whole bank). Variants of the registry run in worker threads (each
   * rebuilds its variants by id); any other variant makes the whole selftest run in-process.
   */
  variants?: MutantVariant[];
  /** Variants run at once (default 6), and as many of those that mostly wait (rate limit, latency, variant.ts waiting) beside them. */
  concurrency?: number;
  /** Worker threads (default 2; 0 runs everything in this thread). */
  workers?: number;
  /** Per-request time budget (ms) for every run (default 3000). */
  timeoutBudgetMs?: number;
  /** Run seed, the same for every variant (default 1). */
  seed?: number;
  onProgress?: (p: SelftestProgress) => void;
  /** Checks to run (default: loadChecks() from suites/); custom checks run in-process. */
  checks?: Check[];
  /** Checks run at once inside one variant run (default 4). */
  checkConcurrency?: number;
  model?: Model;
  /** Token-endpoint limit of the runs (default SELFTEST_DEFAULTS.rateLimit; null: the reference's own). */
  rateLimit?: RateLimitOptions | null;
  /** Profile the bank runs under (default full). */
  profile?: SelftestProfile;
  /**
   * Every check against every variant (the full matrix). Default false: a faulty variant runs only the
   * checks that can name the rule it breaks (check-selection.ts); the baseline and benign variants run all.
   */
  allChecks?: boolean;
  /**
   * Cancels the selftest: no variant starts after it aborts, the worker threads (and the reference
   * servers in them) are terminated, and runSelftest rejects with a CancelledError.
   */
  signal?: AbortSignal;
}

async function defaultChecks(): Promise<Check[]> {
  const { loadChecks } = await import('../../suites/index.ts');
  return loadChecks();
}

const positive = (name: string, n: number, min = 1) => {
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${n}`);
  return n;
};

export async function runSelftest(opts: SelftestOptions = {}): Promise<SelftestResult> {
  const began = performance.now();
  const concurrency = positive('concurrency', opts.concurrency ?? SELFTEST_DEFAULTS.concurrency);
  const timeoutBudgetMs = opts.timeoutBudgetMs ?? SELFTEST_DEFAULTS.timeoutBudgetMs;
  const seed = (opts.seed ?? SELFTEST_DEFAULTS.seed) >>> 0;
  const profile = opts.profile ?? SELFTEST_DEFAULTS.profile;
  const variants = opts.variants ?? buildMutantBank();
  const checkConcurrency = opts.checkConcurrency ?? SELFTEST_DEFAULTS.checkConcurrency;
  const rateLimit = opts.rateLimit === null ? undefined : (opts.rateLimit ?? SELFTEST_DEFAULTS.rateLimit);
  const registered = new Set([...MUTANT_BANK, ...PENDING_BANK].map((v) => v.id));
  const inProcess = !!opts.checks || !!opts.model || variants.some((v) => !registered.has(v.id));
  const workerCount = inProcess ? 0 : Math.min(positive('workers', opts.workers ?? SELFTEST_DEFAULTS.workers, 0), variants.length + 1);
  const allChecks = !!opts.allChecks;
  const init = { seed, timeoutBudgetMs, checkConcurrency, propertyBatch: SELFTEST_DEFAULTS.propertyBatch, profile, allChecks, ...(rateLimit ? { rateLimit } : {}) };
  const waiting = waitingRuns(variants);
  // The workers start (each loads the checks and the model) while this thread loads its own copies;
  // the runs that mostly wait get a thread of their own (schedule.ts).
  const starting = workerCount > 0 ? [startWorkerPool(workerCount, { ...init, nice: CPU_BOUND_NICE }), ...(waiting.length ? [startWorkerPool(1, init)] : [])] : [];
  const closeAll = (pools: Promise<WorkerPool>[]) => Promise.all(pools.map((p) => p.then((w) => w.close(), () => undefined)));
  const [checks, model, pools] = await Promise.all([opts.checks ?? defaultChecks(), opts.model ?? loadModel(), Promise.all(starting)]).catch(async (err: unknown) => {
    await closeAll(starting);
    throw err;
  });
  const checkIds = checks.map((c) => c.id);
  const total = variants.length + 1;
  const progress = opts.onProgress ?? (() => undefined);
  progress({ type: 'started', total });

  const lanes = new Set(waiting);
  let run: (v: MutantVariant | undefined) => Promise<RunRaw>;
  // A run done again because it ran out of time goes to the thread at normal priority (the waiting
  // lane's, idle by then): on the CPU-bound threads' nice value, inside a busy `npm test`, the second
  // try was starved like the first (a request past the budget, a webhook past its wait).
  let rerun: (v: MutantVariant | undefined) => Promise<RunRaw>;
  if (pools.length) {
    run = (v) => (v && lanes.has(v) ? (pools[1] ?? pools[0]) : pools[0]).run(v?.id ?? null);
    rerun = (v) => (pools[1] ?? pools[0]).run(v?.id ?? null);
  } else {
    const ctx: RunContext = { ...init, checks, model };
    run = (v) => runVariant(v, ctx);
    rerun = run;
  }

  try {
    // Two lanes side by side (schedule.ts): the runs that mostly wait, WAITING_AT_ONCE at a time, and the
    // rest, `concurrency` at a time, the baseline first.
    const busy = busyRuns(variants, checks, model, allChecks);
    let baselineRaw: RunRaw | undefined;
    let done = 0;
    const one = async (v: MutantVariant | undefined) => {
      const index = v ? variants.indexOf(v) + 1 : 0;
      progress({ type: 'variant-started', id: v?.id ?? BASELINE_ID, index, total });
      const raw = await run(v);
      if (!v) baselineRaw = raw;
      done++;
      // Progress marks score against the baseline when it is known (the final score is done again below).
      // Before the baseline is known, a variant is marked against an empty one (nothing failing).
      const known = baselineRaw ?? { id: BASELINE_ID, kind: 'baseline' as const, breaks: [], failing: [], skippedChecks: [], passed: 0 };
      const scored = v ? scoreSelftest(known, [raw], checkIds) : scoreSelftest(raw, [], checkIds);
      progress({ type: 'variant-finished', outcome: withRaw(v ? (scored.variants[0] ?? scored.baseline) : scored.baseline, raw), done, total });
      return raw;
    };
    const running = Promise.all([runPool(busy, concurrency, one, opts.signal), runPool(waiting, Math.min(concurrency, WAITING_AT_ONCE), one, opts.signal)]).then(([b, w]) => [...b, ...w]);
    const raws = await untilCancelled(running, opts.signal);
    let baseline = raws[0];
    const byId = new Map(raws.slice(1).map((r) => [r.id, r]));
    let ordered = variants.map((v) => byId.get(v.id)!);
    // Runs that ran out of time and scored wrong are done once more, two at a time, after the rest.
    const reruns = runsToRedo(scoreSelftest(baseline, ordered, checkIds));
    if (reruns.length) {
      const again = await untilCancelled(runPool(reruns, Math.min(2, concurrency), (r) => rerun(r.id === BASELINE_ID ? undefined : variants.find((v) => v.id === r.id)), opts.signal), opts.signal);
      for (const raw of again) {
        if (raw.id === BASELINE_ID) baseline = raw;
        else byId.set(raw.id, raw);
      }
      ordered = variants.map((v) => byId.get(v.id)!);
    }
    const scored = scoreSelftest(baseline, ordered, checkIds);
    const okNow = new Map([scored.baseline, ...scored.variants].map((o) => [o.id, o.ok]));
    const rerunAfterTimeout = reruns.map((r) => ({ ...r, ok: okNow.get(r.id) ?? false }));
    const outcomes = scored.variants.map((o, i) => withRaw(o, ordered[i]));
    const hidden = outcomes.filter((o) => o.kind === 'faulty' && !o.ok && !o.error).flatMap((o) => {
      const missing = hiddenBy(o, checks, variants.find((v) => v.id === o.id)?.reach);
      return missing ? [{ variant: o.id, missing }] : [];
    });
    const hiddenBySkips = hidden.map((h) => h.variant);
    const silentlyPassed = outcomes.filter((o) => o.kind === 'faulty' && !o.ok && !o.error && o.failing.length === 0 && !hiddenBySkips.includes(o.id)).map((o) => o.id);
    // Under the minimal profile a fault only checks needing control or secrets can see is expected to
    // hide; the run still fails on a false positive or on a fault a check that ran missed.
    const exitCode: 0 | 1 = profile === 'minimal' ? (scored.falsePositives.length === 0 && scored.uncaught.every((id) => hiddenBySkips.includes(id)) ? 0 : 1) : scored.exitCode;
    return {
      ...scored,
      exitCode,
      hiddenBySkips,
      hidden,
      silentlyPassed,
      rerunAfterTimeout,
      seed,
      timeoutBudgetMs,
      concurrency,
      workers: workerCount,
      profile,
      checks: checks.length,
      allChecks,
      baseline: withRaw(scored.baseline, baseline),
      variants: outcomes,
      ruleCoverage: ruleCoverage(model, outcomes),
      durationMs: Math.round(performance.now() - began),
    };
  } finally {
    await Promise.all(pools.map((w) => w.close()));
  }
}

/** `work`, or a CancelledError as soon as `signal` aborts (the caller's finally then stops the workers). */
function untilCancelled<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  // Runs in flight fail once their workers are terminated: that is the cancellation, not a new error.
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledError('selftest cancelled: no variant was scored; rerun it, or a slice of it (--variant, --area)'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function withRaw(scored: ScoredRun, raw: RunRaw): VariantOutcome {
  return { ...scored, description: raw.description, unjudgedChecks: raw.unjudgedChecks ?? [], skipped: raw.skipped, checksRun: raw.checksRun, durationMs: raw.durationMs };
}

/**
 * The missing services that hid an uncaught variant, or undefined when nothing hid it: every check of
 * its rule skipped (the reasons name what is missing), or a check of its rule passed with an assertion
 * it could not judge (ctx.couldNotJudge names the service; another check of the rule may judge a part
 * the fault is not in). Checks of the rule that all ran and judged everything saw the fault pass.
 * `reach` (the variant's own, see variant.ts) replaces the checks of the rule: the checks that reach
 * the fault, all skipped, hide it even when another check of the rule ran.
 */
export function hiddenBy(o: Pick<VariantOutcome, 'breaks' | 'skippedChecks' | 'unjudgedChecks' | 'failing'>, checks: readonly Pick<Check, 'id' | 'rules'>[], reach?: readonly string[]): string[] | undefined {
  const covering = reach?.length ? [...reach] : checks.filter((c) => c.rules.some((r) => o.breaks.includes(r))).map((c) => c.id);
  const skipped = new Map(o.skippedChecks.map((x) => [x.checkId, x.reason]));
  const unjudged = new Map(o.unjudgedChecks.map((x) => [x.checkId, x.missing]));
  const failing = new Set(o.failing.map((f) => f.checkId));
  if (covering.length === 0) return undefined;
  const couldNotJudge = covering.filter((id) => unjudged.has(id) && !failing.has(id));
  if (couldNotJudge.length === 0 && !covering.every((id) => skipped.has(id))) return undefined;
  // The services checks could not judge without first: they name where a passing check looked away.
  return [...new Set([...couldNotJudge.flatMap((id) => unjudged.get(id)!), ...covering.flatMap((id) => (skipped.has(id) ? [skipped.get(id)!] : []))])];
}

// Selftest: proves the toolkit catches non-conformance. The unmodified reference runs first
// (baseline), then every mutant variant: a reference started with the variant's options on loopback
// (behind the interception proxy when the variant has one), ALL checks run against it, the server
// stops. A faulty variant counts as caught only when a failing check names one of the rules it
// breaks; any failing check on a benign variant or on the baseline is a false positive.

import type { Check } from '../checks/types.ts';
import type { CheckResult } from '../events/index.ts';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import type { TargetProfile } from '../profile/types.ts';
import { startReference } from '../reference/index.ts';
import { runChecks } from '../runner/index.ts';
import { buildMutantBank } from './registry.ts';
import { brokenRules, type MutantVariant, type VariantKind } from './variant.ts';
import { startInterceptProxy, PROXY_CONTROL_PREFIX, type InterceptProxy } from './proxy.ts';

export const SELFTEST_DEFAULTS = {
  concurrency: 2,
  /** Short per-request budget so the stalling variant stays fast (the spec's 30 s is the ceiling). */
  timeoutBudgetMs: 3000,
  /** Checks run at once inside one variant run. */
  checkConcurrency: 4,
  seed: 1,
} as const;

export const BASELINE_ID = 'baseline';

export interface FailingCheck {
  checkId: string;
  /** Rule ids the failure names (CheckResult.failure.rules). */
  rules: string[];
  message: string;
  /** The failed assertion itself named `rules` (not filled in by the runner). */
  named: boolean;
  cause?: string;
}

export interface VariantOutcome {
  id: string;
  kind: VariantKind | 'baseline';
  breaks: string[];
  description: string;
  /** Checks that failed against this variant (a row of the kill matrix). */
  failing: FailingCheck[];
  /** Failing checks whose failure names a rule in `breaks`. */
  caughtBy: string[];
  /** Faulty: caught by a check naming its rule. Benign/baseline: no check failed. */
  ok: boolean;
  passed: number;
  skipped: number;
  /** Checks skipped in this run (with the runner's reason). */
  skippedChecks: { checkId: string; reason: string }[];
  /** Checks that passed on the baseline but were skipped here (a skip can hide a fault). */
  newlySkipped: string[];
  /** The variant could not be run (server did not start, preflight refused, engine error). */
  error?: string;
  durationMs: number;
}

export interface FalsePositive {
  variant: string;
  checkId: string;
  rules: string[];
  message: string;
  cause?: string;
}

export interface SelftestResult {
  seed: number;
  timeoutBudgetMs: number;
  concurrency: number;
  checks: number;
  baseline: VariantOutcome;
  variants: VariantOutcome[];
  score: { caught: number; faulty: number; percent: number };
  /** Faulty variants no failing check caught by its rule (including those only other checks caught). */
  uncaught: string[];
  /** Faulty variants that made checks fail, none of which names the broken rule (they count as NOT caught). */
  caughtOnlyByOtherRules: string[];
  falsePositives: FalsePositive[];
  exitCode: 0 | 1;
  durationMs: number;
}

export type SelftestProgress =
  | { type: 'started'; total: number }
  | { type: 'variant-started'; id: string; index: number; total: number }
  | { type: 'variant-finished'; outcome: VariantOutcome; done: number; total: number };

export interface SelftestOptions {
  /** Variants to run (default: the whole bank, freshly built). The baseline always runs first. */
  variants?: MutantVariant[];
  /** Variants run at once (default 2). */
  concurrency?: number;
  /** Per-request time budget (ms) for every run (default 3000). */
  timeoutBudgetMs?: number;
  /** Run seed, the same for every variant (default 1). */
  seed?: number;
  onProgress?: (p: SelftestProgress) => void;
  /** Checks to run (default: loadChecks() from suites/). */
  checks?: Check[];
  /** Checks run at once inside one variant run (default 4). */
  checkConcurrency?: number;
  model?: Model;
}

async function defaultChecks(): Promise<Check[]> {
  const { loadChecks } = await import('../../suites/index.ts');
  return loadChecks();
}

function failingOf(results: CheckResult[]): FailingCheck[] {
  return results
    .filter((r) => r.verdict === 'fail')
    .map((r) => ({
      checkId: r.checkId,
      rules: r.failure?.rules ?? r.rules,
      message: r.failure?.message ?? '',
      named: r.failure?.rulesNamed ?? false,
      ...(r.failure?.cause ? { cause: r.failure.cause } : {}),
    }));
}

interface RunInput {
  id: string;
  kind: VariantKind | 'baseline';
  breaks: string[];
  description: string;
  variant?: MutantVariant;
}

async function runOne(input: RunInput, ctx: { checks: Check[]; model: Model; seed: number; timeoutBudgetMs: number; checkConcurrency: number; baselinePassed?: Set<string> }): Promise<VariantOutcome> {
  const began = performance.now();
  const base = { id: input.id, kind: input.kind, breaks: input.breaks, description: input.description };
  let ref: Awaited<ReturnType<typeof startReference>> | undefined;
  let proxy: InterceptProxy | undefined;
  try {
    ref = await startReference({ ...(input.variant?.options ?? {}), host: '127.0.0.1', port: 0, pciPort: 0, control: true, name: `mutant:${input.id}` });
    let raw: TargetProfile = ref.profile;
    if (input.variant?.proxy) {
      proxy = await startInterceptProxy(ref.profile, input.variant.proxy);
      raw = { ...raw, base_url: proxy.baseUrl, control_url: `${proxy.baseUrl}${PROXY_CONTROL_PREFIX}` };
    }
    const profile = resolveProfile(raw, { env: {} }, `mutant ${input.id}`);
    const outcome = await runChecks(
      { profile, model: ctx.model, seed: ctx.seed, timeoutBudgetMs: ctx.timeoutBudgetMs, concurrency: ctx.checkConcurrency },
      ctx.checks,
      [],
    );
    const failing = failingOf(outcome.results);
    const broken = new Set(input.breaks);
    const caughtBy = failing.filter((f) => f.rules.some((r) => broken.has(r))).map((f) => f.checkId);
    const newlySkipped = ctx.baselinePassed ? outcome.results.filter((r) => r.verdict === 'skip' && ctx.baselinePassed!.has(r.checkId)).map((r) => r.checkId) : [];
    return {
      ...base,
      failing,
      caughtBy,
      ok: input.kind === 'faulty' ? caughtBy.length > 0 : failing.length === 0,
      passed: outcome.summary.passed,
      skipped: outcome.summary.skipped,
      skippedChecks: outcome.results.filter((r) => r.verdict === 'skip').map((r) => ({ checkId: r.checkId, reason: r.reason ?? '' })),
      newlySkipped,
      durationMs: Math.round(performance.now() - began),
    };
  } catch (err) {
    const e = err as Error;
    return {
      ...base,
      failing: [],
      caughtBy: [],
      ok: false,
      passed: 0,
      skipped: 0,
      skippedChecks: [],
      newlySkipped: [],
      error: `${e?.name ?? 'Error'}: ${e?.message ?? String(err)}`,
      durationMs: Math.round(performance.now() - began),
    };
  } finally {
    await proxy?.close();
    await ref?.close();
  }
}

async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return out;
}

export async function runSelftest(opts: SelftestOptions = {}): Promise<SelftestResult> {
  const began = performance.now();
  const concurrency = opts.concurrency ?? SELFTEST_DEFAULTS.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a positive integer, got ${concurrency}`);
  const timeoutBudgetMs = opts.timeoutBudgetMs ?? SELFTEST_DEFAULTS.timeoutBudgetMs;
  const seed = (opts.seed ?? SELFTEST_DEFAULTS.seed) >>> 0;
  const variants = opts.variants ?? buildMutantBank();
  const checks = opts.checks ?? (await defaultChecks());
  const model = opts.model ?? (await loadModel());
  const checkConcurrency = opts.checkConcurrency ?? SELFTEST_DEFAULTS.checkConcurrency;
  const total = variants.length + 1;
  const progress = opts.onProgress ?? (() => undefined);
  progress({ type: 'started', total });

  const ctx = { checks, model, seed, timeoutBudgetMs, checkConcurrency };
  progress({ type: 'variant-started', id: BASELINE_ID, index: 0, total });
  const baseline = await runOne({ id: BASELINE_ID, kind: 'baseline', breaks: [], description: 'the unmodified reference implementation' }, ctx);
  let done = 1;
  progress({ type: 'variant-finished', outcome: baseline, done, total });

  // Checks that passed on the baseline: skipping one of them on a variant is reported.
  const baselineSkipped = new Set(baseline.skippedChecks.map((s) => s.checkId));
  const baselinePassed = new Set(checks.map((c) => c.id).filter((id) => !baseline.failing.some((f) => f.checkId === id) && !baselineSkipped.has(id)));
  const outcomes = await pool(variants, concurrency, async (v, i) => {
    progress({ type: 'variant-started', id: v.id, index: i + 1, total });
    const o = await runOne({ id: v.id, kind: v.kind, breaks: brokenRules(v), description: v.description, variant: v }, { ...ctx, baselinePassed: baseline.error ? undefined : baselinePassed });
    done++;
    progress({ type: 'variant-finished', outcome: o, done, total });
    return o;
  });

  const faulty = outcomes.filter((o) => o.kind === 'faulty');
  const caught = faulty.filter((o) => o.ok);
  const uncaught = faulty.filter((o) => !o.ok);
  const falsePositives: FalsePositive[] = [];
  for (const o of [baseline, ...outcomes.filter((x) => x.kind === 'benign')]) {
    for (const f of o.failing) falsePositives.push({ variant: o.id, checkId: f.checkId, rules: f.rules, message: f.message, ...(f.cause ? { cause: f.cause } : {}) });
    if (o.error) falsePositives.push({ variant: o.id, checkId: '(run)', rules: [], message: o.error });
  }
  const exitCode: 0 | 1 = uncaught.length === 0 && falsePositives.length === 0 ? 0 : 1;
  return {
    seed,
    timeoutBudgetMs,
    concurrency,
    checks: checks.length,
    baseline,
    variants: outcomes,
    score: { caught: caught.length, faulty: faulty.length, percent: faulty.length === 0 ? 100 : Math.round((caught.length / faulty.length) * 1000) / 10 },
    uncaught: uncaught.map((o) => o.id),
    caughtOnlyByOtherRules: uncaught.filter((o) => !o.error && o.failing.length > 0).map((o) => o.id),
    falsePositives,
    exitCode,
    durationMs: Math.round(performance.now() - began),
  };
}

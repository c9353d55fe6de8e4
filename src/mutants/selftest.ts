// Selftest: proves the toolkit catches non-conformance. The unmodified reference runs first
// (baseline), then every mutant variant: a reference started with the variant's options on loopback
// (behind the interception proxy when the variant has one), ALL checks run against it, the server
// stops. Scoring (scoring.ts): a faulty variant counts as caught only when a failing check's own
// assertion names a rule it breaks and that check passes on the baseline; any failing or blocked
// check on a benign variant or on the baseline is a false positive.

import type { Check } from '../checks/types.ts';
import type { CheckResult } from '../events/index.ts';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import type { TargetProfile } from '../profile/types.ts';
import { startReference } from '../reference/index.ts';
import { runChecks } from '../runner/index.ts';
import { buildMutantBank } from './registry.ts';
import { scoreSelftest, type FailingCheck, type RunRecord, type Score, type ScoredRun } from './scoring.ts';
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

export type { FailingCheck, FalsePositive } from './scoring.ts';

export interface VariantOutcome extends ScoredRun {
  description: string;
  /** Checks skipped in this run (a separate count: a skip is neither a pass nor a kill). */
  skipped: number;
  durationMs: number;
}

export interface SelftestResult extends Omit<Score, 'baseline' | 'variants'> {
  seed: number;
  timeoutBudgetMs: number;
  concurrency: number;
  checks: number;
  baseline: VariantOutcome;
  variants: VariantOutcome[];
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

/**
 * Failed and blocked checks of a run. A blocked check (a prerequisite step failed) never counts as a
 * kill, but on the baseline or a benign variant it is a false positive like a failure.
 */
export function failingOf(results: CheckResult[]): FailingCheck[] {
  const out: FailingCheck[] = [];
  for (const r of results) {
    if (r.verdict === 'fail') {
      out.push({ checkId: r.checkId, rules: r.failure?.rules ?? r.rules, message: r.failure?.message ?? '', named: r.failure?.rulesNamed ?? false, ...(r.failure?.cause ? { cause: r.failure.cause } : {}) });
    } else if (r.verdict === 'blocked') {
      out.push({ checkId: r.checkId, rules: r.blocked?.rules ?? [], message: `blocked by ${r.blocked?.operation ?? 'a prerequisite'}: ${r.blocked?.message ?? ''}`, named: false, cause: 'BLOCKED' });
    }
  }
  return out;
}

interface RunInput {
  id: string;
  kind: VariantKind | 'baseline';
  breaks: string[];
  description: string;
  variant?: MutantVariant;
}

interface RunRaw extends RunRecord {
  description: string;
  skipped: number;
  durationMs: number;
}

async function runOne(input: RunInput, ctx: { checks: Check[]; model: Model; seed: number; timeoutBudgetMs: number; checkConcurrency: number }): Promise<RunRaw> {
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
    return {
      ...base,
      failing: failingOf(outcome.results),
      passed: outcome.summary.passed,
      skipped: outcome.summary.skipped,
      skippedChecks: outcome.results.filter((r) => r.verdict === 'skip').map((r) => ({ checkId: r.checkId, reason: r.reason ?? '' })),
      durationMs: Math.round(performance.now() - began),
    };
  } catch (err) {
    const e = err as Error;
    return {
      ...base,
      failing: [],
      passed: 0,
      skipped: 0,
      skippedChecks: [],
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
  const checkIds = checks.map((c) => c.id);
  const total = variants.length + 1;
  const progress = opts.onProgress ?? (() => undefined);
  progress({ type: 'started', total });

  const ctx = { checks, model, seed, timeoutBudgetMs, checkConcurrency };
  progress({ type: 'variant-started', id: BASELINE_ID, index: 0, total });
  const baselineRaw = await runOne({ id: BASELINE_ID, kind: 'baseline', breaks: [], description: 'the unmodified reference implementation' }, ctx);
  let done = 1;
  // Progress marks use the baseline as known so far (a variant is scored again, identically, at the end).
  const provisional = (r: RunRaw) => scoreSelftest(baselineRaw, [r], checkIds).variants[0];
  progress({ type: 'variant-finished', outcome: withRaw(scoreSelftest(baselineRaw, [], checkIds).baseline, baselineRaw), done, total });

  const raws = await pool(variants, concurrency, async (v, i) => {
    progress({ type: 'variant-started', id: v.id, index: i + 1, total });
    const o = await runOne({ id: v.id, kind: v.kind, breaks: brokenRules(v), description: v.description, variant: v }, ctx);
    done++;
    progress({ type: 'variant-finished', outcome: withRaw(provisional(o), o), done, total });
    return o;
  });

  const scored = scoreSelftest(baselineRaw, raws, checkIds);
  return {
    ...scored,
    seed,
    timeoutBudgetMs,
    concurrency,
    checks: checks.length,
    baseline: withRaw(scored.baseline, baselineRaw),
    variants: scored.variants.map((o, i) => withRaw(o, raws[i])),
    durationMs: Math.round(performance.now() - began),
  };
}

function withRaw(scored: ScoredRun, raw: RunRaw): VariantOutcome {
  return { ...scored, description: raw.description, skipped: raw.skipped, durationMs: raw.durationMs };
}

// One selftest run: a reference started with a variant's options on loopback (behind the
// interception proxy when the variant has one), every check run against it, the server stopped.
// Used in-process and inside the selftest's worker threads (worker.ts).

import { minimalProfile } from '../reach/minimal.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Check } from '../checks/types.ts';
import type { CheckResult } from '../events/index.ts';
import type { Model } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import type { TargetProfile } from '../profile/types.ts';
import { generateTlsIdentity, startReference, type RateLimitOptions, type ReferenceOptions, type ReferenceTls } from '../reference/index.ts';
import { runChecks } from '../runner/index.ts';
import { checksFor } from './check-selection.ts';
import { startInterceptProxy, PROXY_CONTROL_PREFIX, type InterceptProxy } from './proxy.ts';
import { BLOCKED, type FailingCheck, type RunRecord } from './scoring.ts';
import { brokenRules, describeVariant, type MutantVariant, type VariantTls } from './variant.ts';

export const BASELINE_ID = 'baseline';
export const BASELINE_DESCRIPTION = 'the unmodified reference implementation';

/**
 * Profiles the bank runs under. `full`: the reference's own profile (control API, signing secrets,
 * IdP). `minimal`: what a partner without sandbox powers has: no control API, no signing secrets,
 * no IdP; the checks that need them skip, and the run shows which faults only they catch.
 */
export type SelftestProfile = 'full' | 'minimal';

/**
 * webhook_timeout_ms of a selftest run whose variant does not delay deliveries (the reference's own
 * profile states none). The reference posts each webhook at once, on loopback, so this only bounds how
 * long a check waits for a webhook a faulty variant never delivers (or delivers unrecognisably).
 */
export const SELFTEST_WEBHOOK_TIMEOUT_MS = 5_000;
/** Bound over a variant's delivery delay: benign.webhooks.late (6 s late) must stay clean with no check skipped. */
export const SELFTEST_WEBHOOK_DELAY_MARGIN_MS = 4_000;

/** The bank's webhook bound for a variant's run: the default, or the variant's delivery delay plus a margin. */
export function selftestWebhookTimeoutMs(variant: MutantVariant | undefined): number {
  return Math.max(SELFTEST_WEBHOOK_TIMEOUT_MS, (variant?.proxy?.webhookDelayMs ?? 0) + SELFTEST_WEBHOOK_DELAY_MARGIN_MS);
}

export interface RunContext {
  checks: Check[];
  model: Model;
  seed: number;
  timeoutBudgetMs: number;
  checkConcurrency: number;
  /** Independent property runs at once inside a check (SELFTEST_DEFAULTS.propertyBatch). */
  propertyBatch?: number;
  profile: SelftestProfile;
  /** Token-endpoint limit for variants that do not keep the reference's own (see MutantVariant.realRateLimit). */
  rateLimit?: RateLimitOptions;
  /** Every check on every run; else a faulty variant runs only the checks that can name its rule (check-selection.ts). */
  allChecks?: boolean;
}

export interface RunRaw extends RunRecord {
  description: string;
  /** Passing checks with assertions they could not judge (ctx.couldNotJudge), and the services missing. */
  unjudgedChecks: { checkId: string; missing: string[] }[];
  /** Checks skipped (a separate count: a skip is neither a pass nor a kill). */
  skipped: number;
  /** Checks run (all of them, or those a faulty variant's rule needs: check-selection.ts). */
  checksRun: number;
  durationMs: number;
}

/**
 * Failed and blocked checks of a run. A blocked check (a prerequisite step failed) never counts as a
 * kill, but on the baseline or a benign variant it is a false positive like a failure.
 */
export function failingOf(results: CheckResult[]): FailingCheck[] {
  const out: FailingCheck[] = [];
  for (const r of results) {
    if (r.verdict === 'fail') {
      out.push({
        checkId: r.checkId,
        rules: r.failure?.rules ?? r.rules,
        message: r.failure?.message ?? '',
        named: r.failure?.rulesNamed ?? false,
        sole: r.rules.length === 1,
        ...(r.failure?.namedOutsideCheck ? { namedOutside: true } : {}),
        ...(r.failure?.cause ? { cause: r.failure.cause } : {}),
      });
      // The audit's finding among the answers of a failing check names its own rule (src/checks/audit.ts).
      const audit = r.failure?.audit;
      if (audit) out.push({ checkId: r.checkId, rules: audit.rules, message: audit.message, named: true });
    } else if (r.verdict === 'blocked') {
      const noAnswer = r.blocked?.adapter?.problem === 'unreachable';
      out.push({ checkId: r.checkId, rules: r.blocked?.rules ?? [], message: `blocked by ${r.blocked?.operation ?? 'a prerequisite'}: ${r.blocked?.message ?? ''}`, named: false, cause: BLOCKED, ...(noAnswer ? { noAnswer: true as const } : {}) });
    }
  }
  return out;
}


/** A TLS variant's reference settings: a fresh CA (written to `dir`, named as ca_file) and the variant's protocol bounds. */
async function variantTls(tls: VariantTls, dir: string): Promise<ReferenceTls> {
  const id = await generateTlsIdentity();
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, id.caPem);
  return { key: id.keyPem, cert: id.certPem, caFile, ...tls };
}

/** Runs every check against the variant (undefined: the baseline). Never throws: a run that cannot be done carries `error`. */
export async function runVariant(variant: MutantVariant | undefined, ctx: RunContext): Promise<RunRaw> {
  const began = performance.now();
  const base = variant
    ? { id: variant.id, kind: variant.kind, breaks: brokenRules(variant), description: describeVariant(variant, ctx.model) }
    : { id: BASELINE_ID, kind: 'baseline' as const, breaks: [], description: BASELINE_DESCRIPTION };
  let ref: Awaited<ReturnType<typeof startReference>> | undefined;
  let proxy: InterceptProxy | undefined;
  let tlsDir: string | undefined;
  try {
    const opts: ReferenceOptions = { ...(variant?.options ?? {}), host: '127.0.0.1', port: 0, pciPort: 0, control: ctx.profile === 'full', name: `mutant:${base.id}` };
    if (variant?.tls) {
      tlsDir = await mkdtemp(join(tmpdir(), 'baas-conform-tls-'));
      opts.tls = await variantTls(variant.tls, tlsDir);
    }
    if (!opts.rateLimit && !variant?.realRateLimit && ctx.rateLimit) opts.rateLimit = ctx.rateLimit;
    ref = await startReference(opts);
    let raw: TargetProfile = ref.profile;
    if (variant?.proxy) {
      proxy = await startInterceptProxy(ref.profile, variant.proxy);
      raw = { ...raw, base_url: proxy.baseUrl, ...(raw.control_url ? { control_url: `${proxy.baseUrl}${PROXY_CONTROL_PREFIX}` } : {}) };
    }
    // The bank's webhook bound: a variant that delays deliveries still gets them within it (so a late
    // webhook is proven not to be a fault); a variant that never delivers costs at most this wait.
    raw = { ...raw, webhook_timeout_ms: raw.webhook_timeout_ms ?? selftestWebhookTimeoutMs(variant) };
    if (ctx.profile === 'minimal') raw = minimalProfile(raw);
    const profile = resolveProfile(raw, { env: {}, operations: ctx.model.operations }, `mutant ${base.id}`);
    const checks = checksFor(variant, ctx.checks, ctx.model, ctx.allChecks);
    // The services (IdP, webhook receiver) of the full run, whichever checks run: a check that judges
    // webhooks only when a receiver is up must see the same run narrowed or not.
    const outcome = await runChecks({ servicesFor: ctx.checks, profile, model: ctx.model, seed: ctx.seed, timeoutBudgetMs: ctx.timeoutBudgetMs, concurrency: variant?.checkConcurrency ?? ctx.checkConcurrency, ...(ctx.propertyBatch ? { propertyBatch: ctx.propertyBatch } : {}), ...(variant?.checkTimeoutMs ? { checkTimeoutMs: variant.checkTimeoutMs } : {}) }, [...checks], []);
    return {
      ...base,
      checksRun: checks.length,
      failing: failingOf(outcome.results),
      passed: outcome.summary.passed,
      skipped: outcome.summary.skipped,
      skippedChecks: outcome.results.filter((r) => r.verdict === 'skip').map((r) => ({ checkId: r.checkId, reason: r.reason ?? '' })),
      unjudgedChecks: outcome.results.filter((r) => r.verdict === 'pass' && r.unjudged?.length).map((r) => ({ checkId: r.checkId, missing: [...new Set(r.unjudged!.map((u) => u.missing))] })),
      durationMs: Math.round(performance.now() - began),
    };
  } catch (err) {
    const e = err as Error;
    return { ...base, failing: [], passed: 0, skipped: 0, checksRun: 0, skippedChecks: [], unjudgedChecks: [], error: `${e?.name ?? 'Error'}: ${e?.message ?? String(err)}`, durationMs: Math.round(performance.now() - began) };
  } finally {
    await proxy?.close();
    await ref?.close();
    if (tlsDir) await rm(tlsDir, { recursive: true, force: true });
  }
}

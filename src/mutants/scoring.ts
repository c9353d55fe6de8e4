// Selftest scoring: which failing checks count as a kill, the score, the false positives and the
// skips. Pure functions over the run results, so the rules of crediting are unit-tested
// (scoring.test.ts) without running the bank.
//
// A kill is credited only when the failure's own assertion named the broken rule. Timeouts,
// transport errors, property errors, crashes and rule-less assertions get all of the check's rules
// filled in by the runner (rulesNamed false): they prove that something went wrong, not that the
// check saw the rule broken, so they never count. A check that also fails on the baseline proves
// nothing about the variant and never counts either.

import type { VariantKind } from './variant.ts';

export interface FailingCheck {
  checkId: string;
  /** Rule ids the failure names (CheckResult.failure.rules). */
  rules: string[];
  message: string;
  /** The failed assertion itself named `rules` (not filled in by the runner). */
  named: boolean;
  /** The check covers exactly one rule. */
  sole?: boolean;
  /** The assertion named only rules outside the check (a failed step about another rule). */
  namedOutside?: boolean;
  cause?: string;
  /**
   * A blocked check whose prerequisite got no answer: the control endpoint was unreachable (its call
   * timed out, or the connection failed). On the selftest's own loopback reference that is the
   * machine's time, not the variant's: out-of-time.ts runs it again like a time-out.
   */
  noAnswer?: true;
}

/** What one run (the baseline or a variant) produced, before scoring. */
export interface RunRecord {
  id: string;
  kind: VariantKind | 'baseline';
  /** Rules the variant breaks (empty for benign variants and the baseline). */
  breaks: string[];
  failing: FailingCheck[];
  /** Checks skipped in this run (with the runner's reason). */
  skippedChecks: { checkId: string; reason: string }[];
  passed: number;
  /** The run could not be done (server did not start, preflight refused, engine error). */
  error?: string;
}

/** Cause of a blocked check (a prerequisite step failed): it saw nothing of its own rules. */
export const BLOCKED = 'BLOCKED';

/** Why a failing check was not credited as a kill of the variant. */
export type NotCreditedReason = 'rules-not-named' | 'fails-on-baseline' | 'blocked';

export interface Credit {
  /** Checks credited with the kill. */
  caughtBy: string[];
  /** Failing checks naming a broken rule that were not credited, with the reason. */
  notCredited: { checkId: string; reason: NotCreditedReason }[];
}

/**
 * How strictly kills are credited.
 * - `named`: only a failure whose assertion named the broken rule.
 * - `named-or-sole`: also a rule-less assertion failure of a check that covers exactly one rule (the
 *   assertion can only be about that rule: setup steps of the kit end as blocked, and a step about
 *   another rule says so). Never a timeout, transport error, crash, property error or blocked step.
 * - `any`: any failure whose rules include the broken one (the old crediting, for comparison).
 */
export type CreditMode = 'named' | 'named-or-sole' | 'any';

/** The crediting the selftest uses; `named` becomes possible once every multi-rule check names the rule each assertion breaks. */
export const CREDIT_MODE: CreditMode = 'named-or-sole';

const credited = (f: FailingCheck, mode: CreditMode) =>
  mode === 'any' || f.named || (mode === 'named-or-sole' && !!f.sole && !f.cause && !f.namedOutside);

/** The kills of one faulty variant. */
export function creditKills(failing: readonly FailingCheck[], breaks: readonly string[], baselineFailing: ReadonlySet<string>, mode: CreditMode = CREDIT_MODE): Credit {
  const broken = new Set(breaks);
  const caughtBy: string[] = [];
  const notCredited: Credit['notCredited'] = [];
  for (const f of failing) {
    if (!f.rules.some((r) => broken.has(r))) continue;
    if (f.cause === BLOCKED) notCredited.push({ checkId: f.checkId, reason: 'blocked' });
    else if (baselineFailing.has(f.checkId)) notCredited.push({ checkId: f.checkId, reason: 'fails-on-baseline' });
    else if (!credited(f, mode)) notCredited.push({ checkId: f.checkId, reason: 'rules-not-named' });
    else caughtBy.push(f.checkId);
  }
  return { caughtBy, notCredited };
}

export interface FalsePositive {
  variant: string;
  checkId: string;
  rules: string[];
  message: string;
  cause?: string;
}

export interface ScoredRun extends RunRecord, Credit {
  /** Faulty: a kill was credited. Benign/baseline: no check failed and the run completed. */
  ok: boolean;
  /** Checks that passed on the baseline but were skipped here (a skip can hide a fault). */
  newlySkipped: string[];
}

export interface Score {
  baseline: ScoredRun;
  variants: ScoredRun[];
  score: { caught: number; faulty: number; percent: number };
  /** Faulty variants with no credited kill. */
  uncaught: string[];
  /** Uncaught faulty variants that made checks fail, none credited (other rules, unnamed, baseline). */
  caughtOnlyByOtherRules: string[];
  falsePositives: FalsePositive[];
  /** Skips, counted apart from passes and failures. */
  skips: { baseline: number; variantsWithNewSkips: number; benignWithNewSkips: string[] };
  exitCode: 0 | 1;
}

/** Scores the baseline and the variant runs. Exit 0 only at 100% with no false positive. */
export function scoreSelftest(baseline: RunRecord, runs: readonly RunRecord[], checkIds: readonly string[], mode: CreditMode = CREDIT_MODE): Score {
  const baselineFailing = new Set(baseline.failing.map((f) => f.checkId));
  const baselineSkipped = new Set(baseline.skippedChecks.map((s) => s.checkId));
  // Without a baseline run nothing is known to pass, so no skip is "new".
  const baselinePassed = baseline.error ? new Set<string>() : new Set(checkIds.filter((id) => !baselineFailing.has(id) && !baselineSkipped.has(id)));

  const scoreOne = (r: RunRecord): ScoredRun => {
    const credit = r.kind === 'faulty' ? creditKills(r.failing, r.breaks, baselineFailing, mode) : { caughtBy: [], notCredited: [] };
    const ok = r.kind === 'faulty' ? !r.error && credit.caughtBy.length > 0 : !r.error && r.failing.length === 0;
    const newlySkipped = r.skippedChecks.filter((s) => baselinePassed.has(s.checkId)).map((s) => s.checkId);
    return { ...r, ...credit, ok, newlySkipped };
  };
  const scoredBaseline = scoreOne(baseline);
  const variants = runs.map(scoreOne);

  const faulty = variants.filter((o) => o.kind === 'faulty');
  const caught = faulty.filter((o) => o.ok);
  const uncaught = faulty.filter((o) => !o.ok);
  const falsePositives: FalsePositive[] = [];
  for (const o of [scoredBaseline, ...variants.filter((x) => x.kind === 'benign')]) {
    for (const f of o.failing) falsePositives.push({ variant: o.id, checkId: f.checkId, rules: f.rules, message: f.message, ...(f.cause ? { cause: f.cause } : {}) });
    if (o.error) falsePositives.push({ variant: o.id, checkId: '(run)', rules: [], message: o.error });
  }
  const percent = faulty.length === 0 ? 100 : Math.floor((caught.length / faulty.length) * 1000) / 10;
  return {
    baseline: scoredBaseline,
    variants,
    score: { caught: caught.length, faulty: faulty.length, percent },
    uncaught: uncaught.map((o) => o.id),
    caughtOnlyByOtherRules: uncaught.filter((o) => !o.error && o.failing.length > 0).map((o) => o.id),
    falsePositives,
    skips: {
      baseline: baseline.skippedChecks.length,
      variantsWithNewSkips: variants.filter((o) => o.newlySkipped.length > 0).length,
      benignWithNewSkips: variants.filter((o) => o.kind === 'benign' && o.newlySkipped.length > 0).map((o) => o.id),
    },
    exitCode: uncaught.length === 0 && falsePositives.length === 0 ? 0 : 1,
  };
}

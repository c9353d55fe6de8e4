// Rule coverage: each rule of the model gets one verdict from the checks that cover it. A rule is
// only "pass" when every covering check that ran passed; "untestable" comes from the model itself.
// coverageOf turns the verdicts into counts and shares (exercised, skipped by reason, untestable) so a
// run that skipped a third of the spec cannot look like a full pass; --min-coverage gates on it.
// "Exercised" is judgedRules: a check reached a verdict on the rule from the target's answers. A rule
// that fails only because a prerequisite step failed elsewhere (withOutcomes), a check blocked by a
// control adapter error, a crash of the check, or a pass that left part of the rule unjudged for a
// missing profile field or service (ctx.couldNotJudge) never raises the figure, so breaking the
// adapter or leaving a field out can only lower it.

import type { Check } from '../checks/types.ts';
import type { CheckResult, CoverageSummary, RootCause, RuleVerdict, RunSummary } from '../events/index.ts';
import type { Rule } from '../model/types.ts';

export function ruleVerdicts(rules: Rule[], results: CheckResult[], notSelected: Map<string, string> = new Map(), allChecks: Check[] = []): RuleVerdict[] {
  const byRule = new Map<string, CheckResult[]>();
  // A failure may name a rule outside the check's list (a TIMEOUT names the section 8 budget rule).
  // So may the audit finding of a failing check (failure.audit, src/checks/audit.ts).
  for (const r of results) for (const id of new Set([...r.rules, ...(r.failure?.rules ?? []), ...(r.failure?.audit?.rules ?? [])])) (byRule.get(id) ?? byRule.set(id, []).get(id)!).push(r);
  const unselectedByRule = new Map<string, string[]>();
  for (const c of allChecks) {
    if (!notSelected.has(c.id)) continue;
    for (const id of c.rules) (unselectedByRule.get(id) ?? unselectedByRule.set(id, []).get(id)!).push(c.id);
  }
  return rules.map((rule) => {
    const covering = byRule.get(rule.id) ?? [];
    const unselected = unselectedByRule.get(rule.id) ?? [];
    const base = { id: rule.id, section: rule.section, kind: rule.kind, summary: rule.summary, checks: [...covering.map((c) => c.checkId), ...unselected] };
    if (rule.testable === false) return { ...base, verdict: 'untestable' as const, reason: rule.untestable_reason ?? 'the model marks it untestable' };
    if (!covering.length && !unselected.length) return { ...base, verdict: 'uncovered' as const, reason: 'no check covers this rule' };
    const failed = covering.find((c) => c.verdict === 'fail' && ((c.failure?.rules ?? c.rules).includes(rule.id) || !!c.failure?.audit?.rules.includes(rule.id)));
    if (failed) return { ...base, verdict: 'fail' as const, reason: `${failed.checkId}: ${failed.failure?.message ?? 'failed'}` };
    // Some covering checks may have skipped (e.g. a need unmet) while others passed: the rule was
    // observed holding, so it passes.
    if (covering.some((c) => c.verdict === 'pass')) return { ...base, verdict: 'pass' as const };
    const first = covering[0];
    const reason = first
      ? first.verdict === 'skip'
        ? `${first.checkId}: ${first.reason}`
        : `${first.checkId} failed on another rule before observing this one`
      : `${unselected[0]}: ${notSelected.get(unselected[0])}`;
    return { ...base, verdict: 'skip' as const, reason };
  });
}

/**
 * Rules some check judged against the target: a covering check passed with nothing left unjudged, or
 * failed naming the rule (its own assertion, a transport fault or time limit of the target, the audit
 * of its answers), not by crashing. Blocked and skipped checks judge nothing.
 */
export function judgedRules(results: CheckResult[]): Set<string> {
  const judged = new Set<string>();
  for (const r of results) {
    if (r.verdict === 'pass' && !r.unjudged?.length) for (const id of r.rules) judged.add(id);
    if (r.verdict === 'fail' && r.failure.cause !== 'CHECK_ERROR') for (const id of [...r.failure.rules, ...(r.failure.audit?.rules ?? [])]) judged.add(id);
  }
  return judged;
}

/** Rules the run exercised (pass or fail, judged by a check): what coverage counts and certify requires. */
export function exercisedRules(rules: RuleVerdict[], results: CheckResult[]): Set<string> {
  const judged = judgedRules(results);
  return new Set(rules.filter((r) => (r.verdict === 'pass' || r.verdict === 'fail') && judged.has(r.id)).map((r) => r.id));
}

const share = (n: number, d: number) => (d === 0 ? 1 : Math.round((n / d) * 10_000) / 10_000);

/** Why a skipped rule was not observed: the skip reason of its first covering check (without the check id). */
function skipReasonOfRule(rule: RuleVerdict, byCheck: Map<string, CheckResult>, notSelected: Map<string, string>): string {
  for (const id of rule.checks) {
    const r = byCheck.get(id);
    if (r?.verdict === 'skip' && r.reason) return r.reason;
    if (!r && notSelected.has(id)) return notSelected.get(id)!;
  }
  if (rule.verdict === 'blocked' || rule.verdict === 'fail') return rule.reason ?? 'blocked by a failed prerequisite';
  if (rule.verdict === 'pass') {
    for (const id of rule.checks) {
      const missing = byCheck.get(id)?.unjudged?.[0]?.missing;
      if (missing) return `passed only in part: not judged without ${missing}`;
    }
  }
  for (const id of rule.checks) if (byCheck.get(id)?.verdict === 'fail') return 'a covering check failed on another rule before observing this one';
  return rule.reason ?? 'skipped';
}

export function coverageOf(rules: RuleVerdict[], results: CheckResult[], notSelected: Map<string, string> = new Map(), minShare?: number): CoverageSummary {
  const n = (v: RuleVerdict['verdict']) => rules.filter((r) => r.verdict === v).length;
  const total = rules.length;
  const judged = exercisedRules(rules, results);
  const exercised = judged.size;
  const uncovered = n('uncovered');
  const untestable = n('untestable');
  // Not observed: skipped, blocked (a prerequisite or the control adapter failed), failed only as
  // another check's prerequisite, or passed only in part.
  const notJudged = rules.filter((r) => r.verdict !== 'uncovered' && r.verdict !== 'untestable' && !judged.has(r.id));
  const skipped = notJudged.length;
  const testable = total - untestable;
  const byCheck = new Map(results.map((r) => [r.checkId, r]));
  const groups = new Map<string, { rules: number; checks: Set<string> }>();
  for (const rule of notJudged) {
    const reason = skipReasonOfRule(rule, byCheck, notSelected);
    const g = groups.get(reason) ?? groups.set(reason, { rules: 0, checks: new Set() }).get(reason)!;
    g.rules++;
  }
  for (const r of results) if (r.verdict === 'skip' && r.reason) (groups.get(r.reason) ?? groups.set(r.reason, { rules: 0, checks: new Set() }).get(r.reason)!).checks.add(r.checkId);
  const exercisedShareOfTestable = share(exercised, testable);
  const out: CoverageSummary = {
    rules: {
      total, exercised, skipped, uncovered, untestable, testable,
      // Of the skipped: blocked (a failed prerequisite or control adapter), and passed only in part.
      blocked: notJudged.filter((r) => r.verdict === 'blocked' || r.verdict === 'fail').length,
      partial: notJudged.filter((r) => r.verdict === 'pass').length,
    },
    shares: { exercised: share(exercised, total), skipped: share(skipped, total), uncovered: share(uncovered, total), untestable: share(untestable, total) },
    exercisedShareOfTestable,
    skippedByReason: [...groups].map(([reason, g]) => ({ reason, rules: g.rules, checks: g.checks.size })).sort((a, b) => b.rules - a.rules || b.checks - a.checks || a.reason.localeCompare(b.reason)),
  };
  if (minShare !== undefined) out.minimum = { share: minShare, met: exercisedShareOfTestable >= minShare };
  return out;
}

/** One line saying why --min-coverage failed the run (undefined when it did not). */
export function minCoverageMessage(c: CoverageSummary): string | undefined {
  if (!c.minimum || c.minimum.met) return undefined;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const top = c.skippedByReason.slice(0, 3).map((g) => `${g.rules} rule(s): ${g.reason}`).join('; ');
  return `coverage ${pct(c.exercisedShareOfTestable)} of testable rules exercised (${c.rules.exercised} of ${c.rules.testable}) is below --min-coverage ${c.minimum.share} (${pct(c.minimum.share)})${top ? `; most skipped: ${top}` : ''}`;
}

export function summarize(results: CheckResult[], rules: RuleVerdict[], durationMs: number, causes: RootCause[] = []): RunSummary {
  const count = (v: string) => results.filter((r) => r.verdict === v).length;
  const rc = (v: string) => rules.filter((r) => r.verdict === v).length;
  return {
    rootCauses: causes.length,
    passed: count('pass'),
    failed: count('fail'),
    blocked: count('blocked'),
    ...(results.some((r) => r.blocked?.adapter) ? { adapterErrors: results.filter((r) => r.blocked?.adapter).length } : {}),
    skipped: count('skip'),
    warned: results.filter((r) => r.warnings?.length).length,
    total: results.length,
    requests: results.reduce((n, r) => n + r.requests, 0),
    durationMs: Math.round(durationMs),
    rules: { total: rules.length, passed: rc('pass'), failed: rc('fail'), blocked: rc('blocked'), skipped: rc('skip'), uncovered: rc('uncovered'), untestable: rc('untestable') },
  };
}

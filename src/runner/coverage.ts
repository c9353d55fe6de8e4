// Rule coverage: each rule of the model gets one verdict from the checks that cover it. A rule is
// only "pass" when every covering check that ran passed; "untestable" comes from the model itself.

import type { Check } from '../checks/types.ts';
import type { CheckResult, RootCause, RuleVerdict, RunSummary } from '../events/index.ts';
import type { Rule } from '../model/types.ts';

export function ruleVerdicts(rules: Rule[], results: CheckResult[], notSelected: Map<string, string> = new Map(), allChecks: Check[] = []): RuleVerdict[] {
  const byRule = new Map<string, CheckResult[]>();
  // A failure may name a rule outside the check's list (a TIMEOUT names the section 8 budget rule).
  for (const r of results) for (const id of new Set([...r.rules, ...(r.failure?.rules ?? [])])) (byRule.get(id) ?? byRule.set(id, []).get(id)!).push(r);
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
    const failed = covering.find((c) => c.verdict === 'fail' && (c.failure?.rules ?? c.rules).includes(rule.id));
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

export function summarize(results: CheckResult[], rules: RuleVerdict[], durationMs: number, causes: RootCause[] = []): RunSummary {
  const count = (v: string) => results.filter((r) => r.verdict === v).length;
  const rc = (v: string) => rules.filter((r) => r.verdict === v).length;
  return {
    rootCauses: causes.length,
    passed: count('pass'),
    failed: count('fail'),
    blocked: count('blocked'),
    skipped: count('skip'),
    warned: results.filter((r) => r.warnings?.length).length,
    total: results.length,
    requests: results.reduce((n, r) => n + r.requests, 0),
    durationMs: Math.round(durationMs),
    rules: { total: rules.length, passed: rc('pass'), failed: rc('fail'), blocked: rc('blocked'), skipped: rc('skip'), uncovered: rc('uncovered'), untestable: rc('untestable') },
  };
}

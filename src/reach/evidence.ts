// What one run shows per rule: whether a check judged it (pass or fail with nothing left unjudged),
// why not, and the operations its checks reached. Pure: measure.ts feeds it a run on the embedded
// reference; a recorded run (results and exchanges) feeds it the same way.

import type { CheckResult, RuleVerdict } from '../events/index.ts';
import type { Model, OperationId } from '../model/types.ts';
import { exercisedRules } from '../runner/index.ts';

export interface RuleEvidence {
  /** A covering check ran in this run (a run of some checks only leaves the other rules without evidence). */
  ran: boolean;
  judged: boolean;
  /** A covering check failed naming the rule. */
  failed: boolean;
  /** A covering check failed, on this rule or another: the run fails either way. */
  checkFailed: boolean;
  /** The first warning a covering check gave: accepted by default, a failure only under --strict. */
  warned?: string;
  /** Why no check judged the rule in full (a skip reason, a part not judged). */
  why?: string;
  /** Operations the rule's checks sent requests to. */
  reached: OperationId[];
}

/** One run's evidence: the profile it ran under and each rule's evidence. */
export interface RunEvidence {
  profile: string;
  rules: Record<string, RuleEvidence>;
  /**
   * Operations the run's profile cannot locate (the spec does not show their path and the profile gives
   * none): no check can reach them, so they are not held against a rule's exactness.
   */
  unlocated?: OperationId[];
}

function whyNot(checks: readonly string[], byCheck: ReadonlyMap<string, CheckResult>, verdict: RuleVerdict | undefined): string {
  for (const id of checks) {
    const r = byCheck.get(id);
    if (!r) continue;
    if (r.verdict === 'skip') return `${id} skipped: ${r.reason ?? 'no reason given'}`;
    if (r.verdict === 'blocked') return `${id} blocked`;
    const missing = r.verdict === 'pass' ? r.unjudged?.[0]?.missing : undefined;
    if (missing) return `${id} judged only in part: not without ${missing}`;
  }
  return verdict?.reason ?? 'no covering check judged it';
}

export function runEvidence(
  model: Model,
  profile: string,
  checksByRule: ReadonlyMap<string, readonly string[]>,
  outcome: { results: CheckResult[]; rules: RuleVerdict[] },
  reach: ReadonlyMap<string, ReadonlySet<OperationId>>,
  unlocated: readonly OperationId[] = [],
): RunEvidence {
  const judged = exercisedRules(outcome.rules, outcome.results);
  const byCheck = new Map(outcome.results.map((r) => [r.checkId, r]));
  const verdicts = new Map(outcome.rules.map((r) => [r.id, r]));
  const rules: Record<string, RuleEvidence> = {};
  for (const rule of model.rules) {
    if (!rule.testable) continue;
    const checks = checksByRule.get(rule.id) ?? [];
    const reached = new Set<OperationId>();
    for (const c of checks) for (const op of reach.get(c) ?? []) reached.add(op);
    const ok = judged.has(rule.id);
    const results = checks.map((c) => byCheck.get(c)).filter((r): r is CheckResult => !!r);
    const failed = results.some((r) => r.verdict === 'fail' && (r.failure.rules.includes(rule.id as never) || !!r.failure.audit?.rules.includes(rule.id as never)));
    const warned = results.flatMap((r) => r.warnings ?? [])[0];
    rules[rule.id] = {
      ran: results.length > 0,
      judged: ok,
      failed,
      checkFailed: results.some((r) => r.verdict === 'fail'),
      ...(warned ? { warned } : {}),
      ...(ok ? {} : { why: whyNot(checks, byCheck, verdicts.get(rule.id)) }),
      reached: [...reached].sort(),
    };
  }
  return { profile, rules, ...(unlocated.length ? { unlocated: [...unlocated].sort() } : {}) };
}

// Which checks judge what: rule -> checks (each check's `rules`), and operation -> rules (the
// operations each rule governs, governed.ts). `rules --audit` and `spec-diff` both read them here.

import type { Model, OperationId } from '../model/types.ts';
import { governedOperations } from './governed.ts';

/** What the map needs of a check: its id and the rule ids it covers. */
export interface CheckRules {
  id: string;
  rules: readonly string[];
}

/** Rule id -> ids of the checks covering it (sorted). */
export function checksByRule(checks: readonly CheckRules[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of checks) for (const r of c.rules) (out.get(r) ?? out.set(r, []).get(r)!).push(c.id);
  for (const list of out.values()) list.sort();
  return out;
}

/** Operation -> ids of the rules governing it. */
export function rulesByOperation(model: Model): Map<OperationId, string[]> {
  const out = new Map<OperationId, string[]>();
  for (const rule of model.rules) for (const op of governedOperations(model, rule)) (out.get(op) ?? out.set(op, []).get(op)!).push(rule.id);
  return out;
}

/** The checks covering any of `ruleIds`, sorted and without repeats. */
export function checksOfRules(byRule: ReadonlyMap<string, readonly string[]>, ruleIds: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const id of ruleIds) for (const c of byRule.get(id) ?? []) out.add(c);
  return [...out].sort();
}

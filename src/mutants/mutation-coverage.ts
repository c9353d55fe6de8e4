// Mutation coverage by rule: which faulty variants prove each testable rule's checks, and why a rule
// has none. A score over the bank says nothing about the rules no variant breaks; this does.
// `selftest` prints it, `rules --json` carries it as `mutants`, mutation-coverage.test.ts fails when
// a testable rule has neither a variant nor a recorded reason, or a fault point is used by nothing.

import type { Model, RuleId } from '../model/types.ts';
import { FAULT_POINTS, type FaultPoint } from '../reference/index.ts';
import { MUTANT_BANK, PENDING_BANK } from './registry.ts';
import { brokenRules, type MutantVariant } from './variant.ts';

/**
 * Testable rules no faulty variant can break in the selftest, with the reason. Stale entries (a rule
 * that has a variant) fail mutation-coverage.test.ts.
 */
export const NO_VARIANT_REASONS: Partial<Record<RuleId, string>> = {
};

/** Fault points no variant can use, with the reason (each is to be removed from the reference). */
export const UNUSABLE_FAULT_POINTS: Partial<Record<FaultPoint, string>> = {
};

export interface RuleMutants {
  /** Faulty variants of the default bank that break the rule. */
  variants: string[];
  /** Pending variants (selftest --area pending) that break it. */
  pending: string[];
  /** Why no variant can break it (testable rules only). */
  reason?: string;
}

function byRule(bank: readonly MutantVariant[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const v of bank) for (const r of brokenRules(v)) out.set(r, [...(out.get(r) ?? []), v.id]);
  return out;
}

/** Mutation coverage of every rule of the model (untestable rules get empty lists). */
export function mutationCoverage(model: Model, bank: readonly MutantVariant[] = MUTANT_BANK, pending: readonly MutantVariant[] = PENDING_BANK): Map<RuleId, RuleMutants> {
  const live = byRule(bank);
  const later = byRule(pending);
  return new Map(
    model.rules.map((r) => {
      const reason = r.testable ? NO_VARIANT_REASONS[r.id] : undefined;
      return [r.id, { variants: live.get(r.id) ?? [], pending: later.get(r.id) ?? [], ...(reason ? { reason } : {}) }];
    }),
  );
}

/** Fault points that no variant (default bank or pending) switches on. */
export function unusedFaultPoints(bank: readonly MutantVariant[] = [...MUTANT_BANK, ...PENDING_BANK]): FaultPoint[] {
  const used = new Set(bank.flatMap((v) => [...(v.options.faults ?? [])]));
  return FAULT_POINTS.filter((f) => !used.has(f));
}

// The rule catalogue: which checks cover which rules. Shared by `baas-conform rules` and the reports.
import type { Model, Reading } from '../model/types.ts';
import type { Check } from './types.ts';

export interface CatalogueEntry {
  id: string;
  section: string;
  kind: string;
  summary: string;
  testable: boolean;
  untestable_reason?: string;
  unspecified?: string[];
  /** How the checks read the rule's sentences where they leave a choice (spec/rules readings). */
  readings?: Reading[];
  source: string;
  checks: string[];
}

export function ruleCatalogue(model: Model, checks: readonly Check[]): CatalogueEntry[] {
  const byRule = new Map<string, string[]>();
  for (const c of checks) for (const r of c.rules) {
    const list = byRule.get(r) ?? [];
    list.push(c.id);
    byRule.set(r, list);
  }
  return model.rules.map((r) => ({
    id: r.id,
    section: r.section,
    kind: r.kind,
    summary: r.summary,
    testable: r.testable,
    ...(r.untestable_reason ? { untestable_reason: r.untestable_reason } : {}),
    ...(r.unspecified ? { unspecified: r.unspecified } : {}),
    ...(r.readings ? { readings: r.readings } : {}),
    source: `spec/${r.source.file}#${r.source.pointer}`,
    checks: (byRule.get(r.id) ?? []).sort(),
  }));
}

/** Testable rules that no check covers. */
export function uncoveredRules(entries: readonly CatalogueEntry[]): CatalogueEntry[] {
  return entries.filter((e) => e.testable && e.checks.length === 0);
}

/** Check rule ids that name no rule of the model (a stale check is a defect, not a silent no-op). */
export function unknownRuleRefs(model: Model, checks: readonly Check[]): { check: string; rule: string }[] {
  const ids = new Set(model.rules.map((r) => r.id));
  return checks.flatMap((c) => c.rules.filter((r) => !ids.has(r)).map((rule) => ({ check: c.id, rule })));
}

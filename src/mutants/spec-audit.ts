// The spec audit table: every normative item of the model (a rule of spec/rules) classified as checked
// exactly, checked loosely (the rule's `loose` says why a faulty server can still pass) or not checked
// (testable: false, with its untestable_reason), next to the checks that judge it and the faulty
// variants that prove those checks can fail. `baas-conform rules --audit` prints it; its problems make
// the command exit 1, so an exactly-checked rule that no variant breaks is a build error, not a claim.

import type { ClientRuleId, Model, RuleId } from '../model/types.ts';
import { mutationCoverage, type RuleMutants } from './mutation-coverage.ts';
import { MUTANT_BANK, PENDING_BANK } from './registry.ts';
import type { MutantVariant } from './variant.ts';

export type Strength = 'exact' | 'loose' | 'untestable';

/** At most this many rules may stay loose: the project's bar for "checked exactly" (not a spec fact). */
export const LOOSE_BUDGET = 8;

export interface AuditRow {
  id: RuleId | ClientRuleId;
  /** server: judged by the checks (`run`); client: judged by `baas-conform audit`, proved by the client bank. */
  side: 'server' | 'client';
  section: string;
  strength: Strength;
  /** Why the rule is loose or untestable (absent when exact). */
  why?: string;
  checks: string[];
  /** Faulty variants of the default bank (client side: faulty sample-client modes) that break the rule. */
  variants: string[];
  /** Why no variant can break it (mutation-coverage NO_VARIANT_REASONS). */
  no_variant_reason?: string;
}

export interface AuditTotals {
  items: number;
  exact: number;
  loose: number;
  untestable: number;
  /** Exactly-checked rules a faulty variant proves. */
  exact_with_variant: number;
}

export interface SpecAudit {
  rows: AuditRow[];
  totals: AuditTotals;
  /** What makes the table fail: each line names the rule and what to do. */
  problems: string[];
}

/**
 * The client rules' side of the audit: which rules `baas-conform audit` judges, and the faulty
 * sample-client modes breaking each (examples/clients/faults.ts; absent outside a source checkout,
 * where the client rows show no variants and are not held to having one).
 */
export interface ClientSide {
  judged: ReadonlySet<string>;
  variants?: ReadonlyMap<string, readonly string[]>;
}

/** The audit of `model` against the checks covering each rule (rule id -> check ids) and a variant bank. */
export function specAudit(
  model: Model,
  checksByRule: ReadonlyMap<string, readonly string[]>,
  bank: readonly MutantVariant[] = MUTANT_BANK,
  pending: readonly MutantVariant[] = PENDING_BANK,
  client?: ClientSide,
): SpecAudit {
  const coverage = mutationCoverage(model, bank, pending);
  const rows = model.rules.map((r): AuditRow => {
    const strength: Strength = !r.testable ? 'untestable' : r.loose ? 'loose' : 'exact';
    const why = !r.testable ? r.untestable_reason : r.loose;
    const cov: RuleMutants = coverage.get(r.id) ?? { variants: [], pending: [] };
    return {
      id: r.id,
      side: 'server',
      section: r.section,
      strength,
      ...(why ? { why } : {}),
      checks: [...(checksByRule.get(r.id) ?? [])].sort(),
      variants: cov.variants,
      ...(cov.reason ? { no_variant_reason: cov.reason } : {}),
    };
  });
  if (client) {
    for (const r of model.clientRules) {
      const variants = [...(client.variants?.get(r.id) ?? [])];
      rows.push({
        id: r.id,
        side: 'client',
        section: r.section,
        strength: r.testable ? 'exact' : 'untestable',
        ...(r.untestable_reason ? { why: r.untestable_reason } : {}),
        checks: client.judged.has(r.id) ? ['baas-conform audit'] : [],
        variants,
        ...(r.testable && !client.variants ? { no_variant_reason: 'the client bank (examples/clients) runs from a source checkout only' } : {}),
      });
    }
  }
  const count = (s: Strength) => rows.filter((r) => r.strength === s).length;
  const totals: AuditTotals = {
    items: rows.length,
    exact: count('exact'),
    loose: count('loose'),
    untestable: count('untestable'),
    exact_with_variant: rows.filter((r) => r.strength === 'exact' && r.variants.length > 0).length,
  };
  const problems: string[] = [];
  for (const r of rows) {
    if (r.strength !== 'untestable' && r.checks.length === 0) problems.push(`${r.id}: testable but no check covers it (add a check, or mark it testable: false with an untestable_reason)`);
    if (r.strength === 'exact' && r.variants.length === 0 && !r.no_variant_reason) {
      problems.push(`${r.id}: checked exactly but no faulty variant breaks it (add a variant to src/mutants/variants, or record why in NO_VARIANT_REASONS, or mark the rule loose)`);
    }
  }
  if (totals.loose > LOOSE_BUDGET) problems.push(`${totals.loose} rules are loose, more than ${LOOSE_BUDGET}: tighten their checks`);
  return { rows, totals, problems };
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The audit as a markdown table, with the totals and the problems after it. */
export function formatSpecAudit(audit: SpecAudit): string {
  const lines = ['| rule | side | § | strength | checks | variants | why (loose / not checked) |', '|---|---|---|---|---|---|---|'];
  for (const r of audit.rows) {
    const variants = r.variants.length ? String(r.variants.length) : r.no_variant_reason ? `none: ${r.no_variant_reason}` : '-';
    lines.push(`| ${r.id} | ${r.side} | ${r.section} | ${r.strength} | ${r.checks.length ? r.checks.join(', ') : '-'} | ${cell(variants)} | ${cell(r.why ?? '')} |`);
  }
  const t = audit.totals;
  lines.push('', `${t.items} items: ${t.exact} checked exactly (${t.exact_with_variant} with a faulty variant), ${t.loose} loosely, ${t.untestable} not checked`);
  for (const p of audit.problems) lines.push(`PROBLEM ${p}`);
  return lines.join('\n');
}

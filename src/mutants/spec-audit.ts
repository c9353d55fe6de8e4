// The spec audit table: every normative item of the model (a rule of spec/rules) classified as checked
// exactly, in part (measured: an operation the rule governs that its checks never reach, a field
// compared only when present, a check that did not judge it on the reference, a variant the selftest
// did not catch), loosely (the rule's `loose` says why a faulty server can still pass) or not checked
// (testable: false, with its untestable_reason), next to the checks that judge it and the faulty
// variants that prove those checks can fail. `baas-conform rules --audit` prints it; its problems make
// the command exit 1, so an exactly-checked rule that no variant breaks is a build error, not a claim.

import type { ClientRuleId, Model, RuleId } from '../model/types.ts';
import { mutationCoverage, type RuleMutants } from './mutation-coverage.ts';
import { MUTANT_BANK, PENDING_BANK } from './registry.ts';
import type { MutantVariant } from './variant.ts';
import { governedOperations, type RunEvidence } from '../reach/index.ts';

export type Strength = 'exact' | 'partial' | 'loose' | 'untestable';

/**
 * What runs showed: the checks on the embedded reference under the full and the minimal profile
 * (src/reach/measure.ts), and, when given, a selftest's outcomes per rule (selftest-evidence.ts).
 */
export interface AuditEvidence {
  /** Absent under --static: only selftest results, if any. */
  full?: RunEvidence;
  minimal?: RunEvidence;
  /** The checks that wait for webhooks, with a receiver the target never delivers to. */
  silent?: RunEvidence;
  selftest?: SelftestEvidence[];
}

/** One selftest run (`selftest --json-out`): per rule, its faulty variants caught and missed. */
export interface SelftestEvidence {
  profile: string;
  caught: ReadonlyMap<string, readonly string[]>;
  missed: ReadonlyMap<string, readonly string[]>;
}

/** A reading whose id says the check compares a field only when the answer carries it. */
const WHEN_PRESENT = /when-present/;

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
  /** Operations the rule governs (src/reach governedOperations); empty: it names none. */
  governed?: string[];
  /** Operations its checks reached on the reference (measured runs only). */
  reached?: string[];
  /** Governed operations the measuring profile cannot locate (path not shown, none given): not held against it. */
  unlocated?: string[];
  /** Why the rule is checked only in part (strength partial). */
  partial?: string[];
  /** Under the minimal profile: `judged`, or why its checks could not (measured runs only). */
  minimal?: string;
}

export interface AuditTotals {
  items: number;
  exact: number;
  partial: number;
  loose: number;
  untestable: number;
  /** Exactly-checked rules a faulty variant proves. */
  exact_with_variant: number;
  /** Whether runs were measured (without: only the static part of partial, the when-present readings). */
  measured: boolean;
  /** Exact or partial rules no check judges under the minimal profile (measured runs only). */
  hidden_under_minimal?: number;
}

/** Why `rule` is checked only in part: static (when-present readings) and, with evidence, measured. */
function partialReasons(rule: Model['rules'][number], governed: readonly string[], evidence: AuditEvidence | undefined): string[] {
  const out: string[] = [];
  for (const r of rule.readings ?? []) if (WHEN_PRESENT.test(r.id)) out.push(`compared only when present (reading ${r.id})`);
  if (!evidence) return out;
  const seen = evidence.full?.rules[rule.id];
  if (seen && !seen.judged) out.push(`not judged in full on the reference: ${seen.why ?? 'no reason recorded'}`);
  if (seen?.judged && seen.warned) out.push(`judged with a warning on the reference (a faulty target passes without --strict): ${seen.warned}`);
  const silent = evidence.silent?.rules[rule.id];
  if (seen?.judged && silent?.ran && !silent.checkFailed) out.push(`when no webhook arrives its checks do not fail: ${silent.judged ? 'they pass' : silent.why ?? 'not judged'}`);
  if (seen && governed.length) {
    // An operation the measuring profile cannot locate is reached by no check: not held against the rule.
    const unlocated = new Set<string>(evidence.full?.unlocated ?? []);
    const located = governed.filter((op) => !unlocated.has(op));
    const missing = located.filter((op) => !seen.reached.includes(op as never));
    const where = located.length < governed.length ? ` of the ${located.length} the profile locates` : '';
    if (missing.length) out.push(`governs ${governed.length} operations, its checks reach ${located.length - missing.length}${where}: not ${missing.join(', ')}`);
  }
  for (const st of evidence.selftest ?? []) {
    const missed = st.missed.get(rule.id) ?? [];
    if (st.profile === 'full' && missed.length && !(st.caught.get(rule.id) ?? []).length) out.push(`selftest (full): no variant caught (${missed.join(', ')})`);
  }
  return out;
}

/** `judged` when a check judged the rule under the minimal profile, else why not (selftest outcomes first). */
function minimalOf(id: string, evidence: AuditEvidence | undefined): string | undefined {
  const st = evidence?.selftest?.find((s) => s.profile === 'minimal');
  if (st && ((st.caught.get(id) ?? []).length || (st.missed.get(id) ?? []).length)) {
    return (st.caught.get(id) ?? []).length ? 'judged' : `selftest (minimal): not caught (${(st.missed.get(id) ?? []).join(', ')})`;
  }
  const seen = evidence?.minimal?.rules[id];
  if (!seen) return undefined;
  return seen.judged ? 'judged' : seen.why ?? 'not judged';
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
  evidence?: AuditEvidence,
): SpecAudit {
  const coverage = mutationCoverage(model, bank, pending);
  const rows = model.rules.map((r): AuditRow => {
    const governed = governedOperations(model, r);
    const partial = r.testable && !r.loose ? partialReasons(r, governed, evidence) : [];
    const strength: Strength = !r.testable ? 'untestable' : r.loose ? 'loose' : partial.length ? 'partial' : 'exact';
    const why = !r.testable ? r.untestable_reason : r.loose ?? (partial.length ? partial.join('; ') : undefined);
    const cov: RuleMutants = coverage.get(r.id) ?? { variants: [], pending: [] };
    const seen = evidence?.full?.rules[r.id];
    const unlocated = governed.filter((op) => evidence?.full?.unlocated?.includes(op as never));
    const minimal = r.testable ? minimalOf(r.id, evidence) : undefined;
    return {
      id: r.id,
      side: 'server',
      section: r.section,
      strength,
      ...(why ? { why } : {}),
      checks: [...(checksByRule.get(r.id) ?? [])].sort(),
      variants: cov.variants,
      ...(cov.reason ? { no_variant_reason: cov.reason } : {}),
      governed,
      ...(seen ? { reached: seen.reached } : {}),
      ...(unlocated.length ? { unlocated } : {}),
      ...(partial.length ? { partial } : {}),
      ...(minimal ? { minimal } : {}),
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
    partial: count('partial'),
    loose: count('loose'),
    untestable: count('untestable'),
    exact_with_variant: rows.filter((r) => r.strength === 'exact' && r.variants.length > 0).length,
    measured: !!evidence?.full,
    ...(evidence?.minimal ? { hidden_under_minimal: rows.filter((r) => (r.strength === 'exact' || r.strength === 'partial') && r.minimal && r.minimal !== 'judged').length } : {}),
  };
  const problems: string[] = [];
  for (const r of rows) {
    if (r.strength !== 'untestable' && r.checks.length === 0) problems.push(`${r.id}: testable but no check covers it (add a check, or mark it testable: false with an untestable_reason)`);
    if ((r.strength === 'exact' || r.strength === 'partial') && r.variants.length === 0 && !r.no_variant_reason) {
      problems.push(`${r.id}: checked exactly but no faulty variant breaks it (add a variant to src/mutants/variants, or record why in NO_VARIANT_REASONS, or mark the rule loose)`);
    }
  }
  if (totals.loose > LOOSE_BUDGET) problems.push(`${totals.loose} rules are loose, more than ${LOOSE_BUDGET}: tighten their checks`);
  return { rows, totals, problems };
}

/** The totals line `rules --audit` ends its table with. */
export function auditTotalsLine(t: AuditTotals): string {
  const measured = t.measured ? (t.hidden_under_minimal !== undefined ? `; measured on the embedded reference, ${t.hidden_under_minimal} of the exact and partial not judged under the minimal profile` : '; measured') : '; not measured (--static)';
  return `${t.items} items: ${t.exact} checked exactly (${t.exact_with_variant} with a faulty variant), ${t.partial} in part, ${t.loose} loosely, ${t.untestable} not checked${measured}`;
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The audit as a markdown table, with the totals and the problems after it. */
export function formatSpecAudit(audit: SpecAudit): string {
  const lines = ['| rule | side | § | strength | checks | variants | minimal profile | why (partial / loose / not checked) |', '|---|---|---|---|---|---|---|---|'];
  for (const r of audit.rows) {
    const variants = r.variants.length ? String(r.variants.length) : r.no_variant_reason ? `none: ${r.no_variant_reason}` : '-';
    lines.push(`| ${r.id} | ${r.side} | ${r.section} | ${r.strength} | ${r.checks.length ? r.checks.join(', ') : '-'} | ${cell(variants)} | ${cell(r.minimal ?? '-')} | ${cell(r.why ?? '')} |`);
  }
  lines.push('', auditTotalsLine(audit.totals));
  for (const p of audit.problems) lines.push(`PROBLEM ${p}`);
  return lines.join('\n');
}

// Rule and check verdicts that differ between the two runs. Rules come from each run's own verdicts
// (the model's coverage), so a rule one side could not test (skipped, blocked) differs too.

import type { CheckResult, RuleVerdict } from '../events/index.ts';
import type { CheckVerdictDifference, RuleVerdictDifference } from './types.ts';

/** `ran`: the checks either run ran; a rule names only those of its covering checks. */
export function ruleDifferences(a: readonly RuleVerdict[], b: readonly RuleVerdict[], ran: ReadonlySet<string>): RuleVerdictDifference[] {
  const other = new Map(b.map((r) => [r.id, r]));
  const seen = new Set<string>();
  const out: RuleVerdictDifference[] = [];
  for (const r of a) {
    seen.add(r.id);
    const s = other.get(r.id);
    if (s && s.verdict === r.verdict) continue;
    out.push({ id: r.id, section: r.section, summary: r.summary, a: r.verdict, b: s?.verdict ?? 'absent', checks: [...new Set([...r.checks, ...(s?.checks ?? [])])].filter((c) => ran.has(c)) });
  }
  for (const s of b) if (!seen.has(s.id)) out.push({ id: s.id, section: s.section, summary: s.summary, a: 'absent', b: s.verdict, checks: s.checks.filter((c) => ran.has(c)) });
  return out;
}

function detailOf(r: CheckResult | undefined): string | undefined {
  if (!r) return undefined;
  return r.failure?.message ?? r.blocked?.message ?? r.reason;
}

/** Checks whose verdict differs, by id; their step differences are filled in later. */
export function checkDifferences(a: readonly CheckResult[], b: readonly CheckResult[]): Map<string, CheckVerdictDifference> {
  const other = new Map(b.map((r) => [r.checkId, r]));
  const out = new Map<string, CheckVerdictDifference>();
  for (const r of a) {
    const s = other.get(r.checkId);
    if (!s || s.verdict === r.verdict) continue;
    const [detailA, detailB] = [detailOf(r), detailOf(s)];
    out.set(r.checkId, { check: r.checkId, a: r.verdict, b: s.verdict, ...(detailA ? { detailA } : {}), ...(detailB ? { detailB } : {}), steps: [] });
  }
  return out;
}

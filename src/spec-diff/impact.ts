// Which checks and rules a spec change touches (the map of src/reach: rule -> checks, the operations
// each rule governs, and, when measured, the operations each check reached), and, for a certification
// package, which of its signed verdicts the changes invalidate and which carry over.

import type { Model } from '../model/types.ts';
import { checksByRule, checksOfRules, governedOperations, type CheckRules } from '../reach/index.ts';
import type { OperationChange, SpecDiff } from './diff.ts';

/** What the impact needs of a check: its id, rules and needs (control operations). */
export interface CheckInfo extends CheckRules {
  needs?: readonly string[];
}

export interface ChangeImpact {
  /** The change, in one line. */
  change: string;
  rules: string[];
  checks: string[];
}

export interface Impact {
  /** Every check any change touches; `all` when a change no class explains touches everything. */
  checks: string[];
  rules: string[];
  all: boolean;
  byChange: ChangeImpact[];
  /** How check -> operation was known: measured (a run's exchanges) or from the rules alone. */
  reach: 'measured' | 'rules';
}

/** Rules an operation change can reach: by the part it touches. */
function rulesOfOperation(models: Model[], c: OperationChange): string[] {
  const out = new Set<string>();
  const wide = c.parts.some((p) => p === 'location' || p === 'auth' || p === 'parameters' || p === 'request' || p === 'safety');
  for (const m of models) {
    for (const r of m.rules) {
      const governed = governedOperations(m, r);
      // A rule that names no operation is judged on every answer it sees (a schema, a body shape):
      // kept here, narrowed to the checks that reached the operation below.
      if (governed.length === 0) {
        out.add(r.id);
        continue;
      }
      if (!governed.includes(c.operationId as never)) continue;
      // A section 7 row governs the operations of its family through their credentials, not their
      // answers' fields: only a change of how the operation is called reaches it there.
      if (!wide && !r.operations.includes(c.operationId as never)) continue;
      if (wide || (c.parts.includes('success') && r.kind !== 'error') || (c.parts.includes('error') && r.kind === 'error')) out.add(r.id);
    }
  }
  return [...out].sort();
}

/**
 * The checks and rules `diff` touches. `reach` (check -> operations it reached, from a run) narrows an
 * operation's change to the checks that sent it a request; without it, every check of a touched rule.
 */
export function impactOf(diff: SpecDiff, models: { old: Model; new: Model }, checks: readonly CheckInfo[], reach?: ReadonlyMap<string, ReadonlySet<string>>): Impact {
  const byRule = checksByRule(checks);
  const byChange: ChangeImpact[] = [];
  for (const r of diff.rules) {
    // Prose (summary, readings, sections) changes no requirement, so no verdict.
    if (r.change === 'changed' && !r.breaking) continue;
    byChange.push({ change: `rule ${r.id} ${r.change}${r.keys ? ` (${r.keys.join(', ')})` : ''}`, rules: [r.id], checks: checksOfRules(byRule, [r.id]) });
  }
  for (const c of diff.operations) {
    const rules = rulesOfOperation([models.old, models.new], c);
    let touched = checksOfRules(byRule, rules);
    if (reach) touched = touched.filter((id) => reach.get(id)?.has(c.operationId));
    const rulesTouched = rules.filter((id) => (byRule.get(id) ?? []).some((x) => touched.includes(x)) || !reach);
    const what = [...c.details, ...c.fields.map((f) => `${f.where} ${f.field} ${f.change}`)].join('; ');
    byChange.push({ change: `operation ${c.operationId} ${c.change}${what ? `: ${what}` : ''}`, rules: rulesTouched, checks: touched });
  }
  for (const c of diff.control) {
    const touched = checks.filter((k) => (k.needs ?? []).some((n) => n.split('|').includes(`control:${c.id}`))).map((k) => k.id).sort();
    byChange.push({ change: `control operation ${c.id} ${c.change}`, rules: [...new Set(checks.filter((k) => touched.includes(k.id)).flatMap((k) => k.rules))].sort(), checks: touched });
  }
  for (const w of diff.webhooks) {
    const paths = new Set([models.old, models.new].flatMap((m) => m.webhooks.filter((h) => h.id === w.id && h.path).map((h) => h.path!)));
    // The webhook's own alias rules, and every rule of section 6 events (their payloads are read whole).
    const rules = [models.old, models.new].flatMap((m) => m.rules.filter((r) => r.kind === 'event' || (r.kind === 'alias' && r.direction === 'webhook' && !!r.webhook && paths.has(r.webhook))).map((r) => r.id));
    const unique = [...new Set(rules)].sort();
    byChange.push({ change: `webhook ${w.id} ${w.change}${w.fields?.length ? `: ${w.fields.map((f) => `${f.field} ${f.change}`).join('; ')}` : ''}`, rules: unique, checks: checksOfRules(byRule, unique) });
  }
  const all = diff.files.some((f) => !f.classified);
  if (all) byChange.push({ change: `unclassified changes in ${diff.files.filter((f) => !f.classified).map((f) => f.file).join(', ')}`, rules: [...byRule.keys()].sort(), checks: checks.map((c) => c.id).sort() });
  const known = new Set(checks.map((c) => c.id));
  return {
    checks: [...new Set(byChange.flatMap((c) => c.checks))].filter((id) => known.has(id)).sort(),
    rules: [...new Set(byChange.flatMap((c) => c.rules))].sort(),
    all,
    byChange,
    reach: reach ? 'measured' : 'rules',
  };
}

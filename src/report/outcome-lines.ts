// Text for the run's outcome beyond pass/fail: root causes (read first), warnings (shown apart),
// the diff against a baseline, expected failures and why the exit code is what it is. Shared by
// the console reporter and `baas-conform diff`; `clean` strips terminal control characters.

import { formatDiff } from '../baseline/diff.ts';
import type { CheckResult, RunEvent } from '../events/index.ts';

type Finished = Extract<RunEvent, { type: 'run-finished' }>;

// A block naming no rule was stopped by a profile setting the target refused, an unread answer or a
// rate limit: an empty rule list printed as "()" read as a missing value.
export const OUTSIDE_RULES = "the cause is outside the target's rules";
const NO_RULE_BROKEN = `no rule broken (${OUTSIDE_RULES})`;

/** "(RULE-A, RULE-B)" for the rules a block breaks, or the words for a block that breaks none. */
export function blockingRulesText(rules: readonly string[]): string {
  return rules.length ? `(${rules.join(', ')})` : `(no rule broken: ${OUTSIDE_RULES})`;
}

/** "Root causes: 2 (1 failed check, 1 blocking operation explaining 4 blocked checks)" and one line per cause. */
export function rootCauseLines(e: Finished, clean: (s: string) => string): string[] {
  const causes = e.rootCauses ?? [];
  if (!causes.length) return [];
  const blocking = causes.filter((c) => c.kind === 'blocking').length;
  const own = causes.length - blocking;
  const lines = [`Root causes: ${causes.length} (${own} own failure${own === 1 ? '' : 's'}, ${blocking} blocking operation${blocking === 1 ? '' : 's'}; ${e.summary.failed} failed and ${e.summary.blocked} blocked check${e.summary.blocked === 1 ? '' : 's'})`];
  for (const c of causes) {
    const what = c.adapter ? `control adapter error (${c.adapter}, not the target) on ${c.id}` : c.kind === 'blocking' ? `operation ${c.id} failed as a prerequisite` : `check${c.checks.length > 1 ? 's' : ''} ${c.checks.join(', ')}${c.operation ? ` (on ${c.operation})` : ''}`;
    lines.push(`  ${what} — ${c.rules.length ? `rules ${c.rules.join(', ')}` : NO_RULE_BROKEN}: ${clean(c.message).slice(0, 300)}`);
    if (c.blocked.length) lines.push(`    blocks ${c.blocked.length}: ${c.blocked.join(', ')}`);
  }
  return lines;
}

export function warningLines(results: CheckResult[], clean: (s: string) => string): string[] {
  const warned = results.filter((r) => r.warnings?.length);
  if (!warned.length) return [];
  const lines = [`Warnings (recommended by the spec but not required, or accepted only under a reading the rule records; they fail the run only with --strict): ${warned.length} check${warned.length === 1 ? '' : 's'}`];
  for (const r of warned) for (const w of r.warnings!) lines.push(`  ${r.checkId}: ${clean(w)}`);
  return lines;
}

/** Assertions checks could not judge for a missing service (ctx.couldNotJudge): not passed, not failed. */
export function unjudgedLines(results: CheckResult[], clean: (s: string) => string): string[] {
  const open = results.filter((r) => r.unjudged?.length);
  if (!open.length) return [];
  const lines = [`Could not judge (a service the run lacks; these assertions count as neither passed nor failed): ${open.length} check${open.length === 1 ? '' : 's'}`];
  for (const r of open) for (const u of r.unjudged!) lines.push(`  ${r.checkId}: could not judge ${clean(u.what)} (missing: ${clean(u.missing)})`);
  return lines;
}

export function expectedLines(e: Finished, clean: (s: string) => string): string[] {
  const x = e.expected;
  if (!x) return [];
  const lines = [`Expected failures (${clean(x.file)}): ${x.waived.length} waived, ${x.problems.length} problem${x.problems.length === 1 ? '' : 's'}`];
  for (const w of x.waived) lines.push(`  waived ${w.check} (${w.verdict}, ${w.kind ?? 'known'}${w.owner ? `, owner ${clean(w.owner)}` : ''}${w.link ? `, ${clean(w.link)}` : ''}): ${clean(w.reason)}`);
  for (const p of x.problems) lines.push(`  ${p.problem} ${p.check}: ${clean(p.message)}`);
  return lines;
}

export function diffLines(e: Finished, clean: (s: string) => string): string[] {
  return e.diff ? formatDiff(e.diff, clean) : [];
}

export function exitLines(e: Finished): string[] {
  if (!e.exit) return [];
  return e.exit.code === 0 ? ['Exit 0'] : [`Exit ${e.exit.code}: ${e.exit.reasons.join('; ')}`];
}

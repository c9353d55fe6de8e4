// The console summary of a comparison: counts first, then each group, bounded so a wholly different
// target prints a screenful, not thousands of lines (the JSON and HTML files hold everything).

import type { CompareResult, StepDifference } from './types.ts';

const SHOWN = 20;

/** Target text may hold terminal control characters. */
const clean = (s: string) => s.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, ' ');

export function differenceLine(d: StepDifference): string {
  const what =
    d.kind === 'only-a' ? 'only in A' : d.kind === 'only-b' ? 'only in B' : d.kind === 'status' ? `HTTP ${d.a} in A, ${d.b} in B` : `${d.a} in A, ${d.b} in B`;
  return clean(`${d.operation} ${d.kind === 'status' ? '' : `${d.field}: `}${what} (${d.occurrences} step${d.occurrences === 1 ? '' : 's'}; ${d.why})`);
}

function group(title: string, list: string[]): string[] {
  if (!list.length) return [];
  const more = list.length > SHOWN ? [`  ... ${list.length - SHOWN} more in the JSON and HTML reports`] : [];
  return [title, ...list.slice(0, SHOWN).map((l) => `  ${l}`), ...more];
}

export function formatCompare(r: CompareResult): string[] {
  const { a, b } = r.targets;
  const name = (t: typeof a) => `${t.name ? `${t.name} ` : ''}${t.baseUrl}`;
  const c = r.counts;
  return [
    `A: ${clean(name(a))} (${a.summary.passed} passed, ${a.summary.failed} failed, ${a.summary.blocked} blocked, ${a.summary.skipped} skipped)`,
    `B: ${clean(name(b))} (${b.summary.passed} passed, ${b.summary.failed} failed, ${b.summary.blocked} blocked, ${b.summary.skipped} skipped)`,
    ...group(
      'Rule verdicts that differ:',
      r.verdicts.rules.map((v) => `${v.id} (section ${v.section}): ${v.a} in A, ${v.b} in B`),
    ),
    ...group(
      'Checks judged differently:',
      r.verdicts.checks.flatMap((v) => [clean(`${v.check}: ${v.a} in A, ${v.b} in B${v.detailA ? ` | A: ${v.detailA}` : ''}${v.detailB ? ` | B: ${v.detailB}` : ''}`), ...v.steps.map((d) => `    ${differenceLine(d)}`)]),
    ),
    ...group('Where the spec specifies (checks judged alike):', r.specified.map(differenceLine)),
    ...group('Spec is silent here (for the spec authors to settle):', r.silent.map(differenceLine)),
    `Compared ${c.pairedSteps} steps (seed ${r.seed}): ${c.rulesDiffering} rule verdicts differ, ${c.checksDiffering} checks; ${c.specified} differences where the spec specifies, ${c.silent} where it is silent; ${c.notCompared} steps not compared (no answer, a truncated body, or a 429 on one side), ${c.unpairedSteps} steps without a counterpart`,
  ];
}

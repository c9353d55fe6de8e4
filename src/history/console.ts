// The console summary of a history: runs, what changed against the previous run and the window,
// streaks of what fails now, flapping rules, and a toolkit bug when the reference flaps.

import type { ChangeCounts, HistoryDoc, Timeline } from './types.ts';

const line = (c: ChangeCounts) => `${c.regressed} regressed, ${c.new} new, ${c.fixed} fixed`;
const flips = (t: Timeline) => t.verdicts.map((v) => (v === null ? '·' : v === 'pass' ? '✓' : v === 'fail' ? '✗' : v === 'blocked' ? '■' : '-')).join('');

/** Target-supplied text (its name) may hold terminal control characters. */
const stripControls = (s: string) => s.replace(/[\u0000-\u001F\u007F-\u009F]/g, ' ');

/** Lines for the terminal; `clean` strips control characters from target-supplied text. */
export function formatHistory(h: HistoryDoc, clean: (s: string) => string = stripControls): string[] {
  const out: string[] = [];
  const first = h.runs[0];
  const last = h.runs.at(-1);
  out.push(`History of ${clean(h.target.name)}${h.target.reference ? ' (the reference implementation)' : ''}: ${h.runs.length} runs${first && last ? `, ${first.started} → ${last.started}` : ''}, window ${h.window}`);
  out.push(`  rules  vs previous: ${line(h.counts.rules.vsPrevious)}; vs last ${h.window}: ${line(h.counts.rules.vsWindow)}; flapping: ${h.counts.rules.flapping}`);
  out.push(`  checks vs previous: ${line(h.counts.checks.vsPrevious)}; vs last ${h.window}: ${line(h.counts.checks.vsWindow)}; flapping: ${h.counts.checks.flapping}`);
  const changed = h.rules.filter((t) => t.vsPrevious !== 'same');
  if (changed.length > 0) {
    out.push('Rules changed since the previous run:');
    for (const t of changed) out.push(`  ${t.vsPrevious.padEnd(9)} ${t.id}  ${flips(t)}`);
  }
  const failing = h.rules.filter((t) => t.latest === 'fail' || t.latest === 'blocked');
  if (failing.length > 0) {
    out.push('Rules failing now (streak):');
    for (const t of failing) out.push(`  ${t.id}: ${t.latest} for ${t.streak.runs} run${t.streak.runs === 1 ? '' : 's'}`);
  }
  const flapping = h.rules.filter((t) => t.flapping);
  if (flapping.length > 0) {
    out.push(`Flapping rules (pass ↔ fail at least twice in the last ${h.window + 1} runs; ✓ pass ✗ fail ■ blocked - skipped · absent):`);
    for (const t of flapping) out.push(`  ${t.id}  ${flips(t)}`);
  }
  if (h.flakes) {
    out.push(h.flakes.length > 0 ? 'Flake classes (replayed by seed):' : 'Flake classes: no check failed in one run and passed in another of the window.');
    for (const f of h.flakes) out.push(`  ${f.class.toUpperCase().padEnd(15)} ${f.check}: failed in seed ${f.failing.seed}, passed in seed ${f.passing.seed}; ${f.why}`);
  }
  if (h.toolkitBugs.length > 0) out.push(`TOOLKIT BUG: the reference implementation does not change between runs, yet ${h.toolkitBugs.join(', ')} flapped against it. Report it with the results.json files.`);
  return out;
}

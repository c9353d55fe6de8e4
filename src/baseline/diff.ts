// What changed between two runs, per check and per rule: newly failing, fixed, newly skipped. A
// nightly job reads this instead of the whole report; `run --baseline` puts it in every report.

import type { DiffGroup, RunDiff, VerdictChange } from '../events/index.ts';

/** What diff needs of a run: verdicts (and reasons) of checks and rules. Results docs and live runs both fit. */
export interface ComparableRun {
  runId?: string;
  seed?: number;
  started?: string;
  toolVersion?: string;
  checks: { checkId: string; verdict: string; reason?: string; failure?: { message: string }; blocked?: { operation: string; message: string } }[];
  rules: { id: string; verdict: string; reason?: string }[];
}

const FAILING = new Set(['fail', 'blocked']);
/** Rule verdicts that say nothing about the target (not a regression when they change). */
const NEUTRAL = new Set(['uncovered', 'untestable']);

function emptyGroup(): DiffGroup {
  return { newlyFailing: [], fixed: [], newlySkipped: [], other: [] };
}

/** A rule skipped only because its checks were not selected here (--shard, --check, --safe): not a finding. */
const NOT_SELECTED = /(^|: )not run: /;

function classify(group: DiffGroup, change: VerdictChange): void {
  const { from, to } = change;
  if (from === to) return;
  if (FAILING.has(to) && !FAILING.has(from)) group.newlyFailing.push(change);
  else if (FAILING.has(from) && to === 'pass') group.fixed.push(change);
  else if (to === 'skip' && from !== 'absent' && !NEUTRAL.has(from) && !NOT_SELECTED.test(change.detail ?? '')) group.newlySkipped.push(change);
  else if (from !== 'absent') group.other.push(change);
}

function checkDetail(c: ComparableRun['checks'][number]): string | undefined {
  if (c.verdict === 'fail') return c.failure?.message;
  if (c.verdict === 'blocked') return c.blocked ? `blocked by ${c.blocked.operation}: ${c.blocked.message}` : undefined;
  if (c.verdict === 'skip') return c.reason;
  return undefined;
}

function withDetail(change: VerdictChange, detail: string | undefined): VerdictChange {
  return detail ? { ...change, detail } : change;
}

/**
 * Compares `current` with `baseline`. A check or rule only in the current run that fails counts as
 * newly failing (a new check that fails is news); ids only in one run are also listed apart.
 */
export function diffRuns(baseline: ComparableRun, current: ComparableRun): RunDiff {
  const checks = emptyGroup();
  const rules = emptyGroup();
  const oldChecks = new Map(baseline.checks.map((c) => [c.checkId, c]));
  const newChecks = new Map(current.checks.map((c) => [c.checkId, c]));
  for (const c of current.checks) {
    const before = oldChecks.get(c.checkId);
    classify(checks, withDetail({ id: c.checkId, from: before?.verdict ?? 'absent', to: c.verdict }, checkDetail(c)));
  }
  const oldRules = new Map(baseline.rules.map((r) => [r.id, r]));
  for (const r of current.rules) {
    const before = oldRules.get(r.id);
    classify(rules, withDetail({ id: r.id, from: before?.verdict ?? 'absent', to: r.verdict }, r.verdict === 'pass' ? undefined : r.reason));
  }
  const newRules = new Set(current.rules.map((r) => r.id));
  const info: RunDiff['baseline'] = {};
  if (baseline.runId !== undefined) info.runId = baseline.runId;
  if (baseline.seed !== undefined) info.seed = baseline.seed;
  if (baseline.started !== undefined) info.started = baseline.started;
  if (baseline.toolVersion !== undefined) info.toolVersion = baseline.toolVersion;
  return {
    baseline: info,
    checks,
    rules,
    onlyInBaseline: [...baseline.checks.filter((c) => !newChecks.has(c.checkId)).map((c) => c.checkId), ...baseline.rules.filter((r) => !newRules.has(r.id)).map((r) => r.id)],
    onlyInCurrent: current.checks.filter((c) => !oldChecks.has(c.checkId)).map((c) => c.checkId),
  };
}

/** True when the current run has a check or rule that newly fails. */
export function hasRegressions(diff: RunDiff): boolean {
  return diff.checks.newlyFailing.length > 0 || diff.rules.newlyFailing.length > 0;
}

const HEADINGS: [keyof DiffGroup, string][] = [
  ['newlyFailing', 'Newly failing'],
  ['fixed', 'Fixed'],
  ['newlySkipped', 'Newly skipped'],
  ['other', 'Other changes'],
];

/** Plain-text diff, per rule and per check; `clean` strips terminal control characters from target text. */
export function formatDiff(diff: RunDiff, clean: (s: string) => string = (s) => s): string[] {
  const b = diff.baseline;
  const lines = [`Compared with baseline${b.runId ? ` run ${b.runId}` : ''}${b.seed !== undefined ? ` (seed ${b.seed}${b.started ? `, ${b.started}` : ''})` : ''}:`];
  let any = false;
  for (const [key, heading] of HEADINGS) {
    const rules = diff.rules[key];
    const checks = diff.checks[key];
    if (!rules.length && !checks.length) continue;
    any = true;
    lines.push(`  ${heading}: ${rules.length} rule${rules.length === 1 ? '' : 's'}, ${checks.length} check${checks.length === 1 ? '' : 's'}`);
    for (const r of rules) lines.push(`    rule  ${r.id}: ${r.from} -> ${r.to}${r.detail ? ` — ${clean(r.detail).slice(0, 200)}` : ''}`);
    for (const c of checks) lines.push(`    check ${c.id}: ${c.from} -> ${c.to}${c.detail ? ` — ${clean(c.detail).slice(0, 200)}` : ''}`);
  }
  if (!any) lines.push('  no verdict changed');
  if (diff.onlyInBaseline.length) lines.push(`  Only in the baseline (not run now: another shard, --check, or removed): ${diff.onlyInBaseline.length}`);
  return lines;
}

// The exit code of a run, decided once: 1 when a check failed or was blocked (unless its failure is
// listed as expected), when the expected-failures list has rotted, or with --strict when a check
// warned. Warnings alone never fail a run without --strict. A run that judged nothing (no check
// selected, or every selected check skipped) is inconclusive, exit 4: never 0, --strict or not.

import { conclude, exitCodeOf, inconclusive, type Conclusion } from '../errors/index.ts';
import type { ExpectedFailuresOutcome } from '../events/index.ts';

export interface ExitInput {
  results: { checkId: string; verdict: string; warnings?: string[]; reason?: string; blocked?: { adapter?: object } }[];
  expected?: ExpectedFailuresOutcome;
  strict?: boolean;
  /** The selection, to say why nothing was selected (e.g. `shard 3/4`, `--check x`). */
  selection?: string;
}

export interface RunExit {
  code: 0 | 1 | 4;
  verdict: Conclusion;
  reasons: string[];
}

/** Skip reasons, most frequent first (at most three), for the inconclusive line. */
function topReasons(results: ExitInput['results']): string {
  const by = new Map<string, number>();
  for (const r of results) by.set(r.reason ?? 'no reason given', (by.get(r.reason ?? 'no reason given') ?? 0) + 1);
  const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([why, n]) => `${n}: ${why}`);
  return `${top.join('; ')}${by.size > 3 ? `; and ${by.size - 3} other reason(s)` : ''}`;
}

/** Why the run judged nothing, or undefined when some check passed, failed or was blocked. */
export function judgedNothing(results: ExitInput['results'], selection?: string): string | undefined {
  if (results.length === 0) return inconclusive('the run', `no check was selected${selection ? ` (${selection})` : ''}`);
  if (results.some((r) => r.verdict !== 'skip')) return undefined;
  return inconclusive('the run', `all ${results.length} selected check${results.length === 1 ? '' : 's'} skipped (${topReasons(results)})`);
}

export function decideExit({ results, expected, strict, selection }: ExitInput): RunExit {
  const waived = new Set(expected?.waived.map((w) => w.check) ?? []);
  const reasons: string[] = [];
  const failing = results.filter((r) => (r.verdict === 'fail' || r.verdict === 'blocked') && !waived.has(r.checkId));
  const failed = failing.filter((r) => r.verdict === 'fail').length;
  const blocked = failing.length - failed;
  if (failed) reasons.push(`${failed} check${failed === 1 ? '' : 's'} failed`);
  // A control adapter error is the user's adapter, not the target: said apart, so nobody reads it as the target's fault.
  const byAdapter = failing.filter((r) => r.verdict === 'blocked' && r.blocked?.adapter).length;
  if (blocked - byAdapter) reasons.push(`${blocked - byAdapter} check${blocked - byAdapter === 1 ? '' : 's'} blocked by a failed prerequisite`);
  if (byAdapter) reasons.push(`${byAdapter} check${byAdapter === 1 ? '' : 's'} blocked by a control adapter error (the adapter's, not the target's: see ADAPTER ERROR above)`);
  for (const p of expected?.problems ?? []) reasons.push(`expected-failures ${expected!.file}: ${p.message}`);
  const warned = results.filter((r) => r.warnings?.length).length;
  if (strict && warned) reasons.push(`--strict: ${warned} check${warned === 1 ? '' : 's'} warned`);
  const nothing = judgedNothing(results, selection);
  const verdict = conclude(reasons.length > 0, nothing !== undefined);
  if (nothing) reasons.push(nothing);
  return { code: exitCodeOf(verdict), verdict, reasons };
}

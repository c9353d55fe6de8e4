// The exit code of a run, decided once: 1 when a check failed or was blocked (unless its failure is
// listed as expected), when the expected-failures list has rotted, or with --strict when a check
// warned. Warnings alone never fail a run without --strict.

import type { ExpectedFailuresOutcome } from '../events/index.ts';

export interface ExitInput {
  results: { checkId: string; verdict: string; warnings?: string[] }[];
  expected?: ExpectedFailuresOutcome;
  strict?: boolean;
}

export function decideExit({ results, expected, strict }: ExitInput): { code: 0 | 1; reasons: string[] } {
  const waived = new Set(expected?.waived.map((w) => w.check) ?? []);
  const reasons: string[] = [];
  const failing = results.filter((r) => (r.verdict === 'fail' || r.verdict === 'blocked') && !waived.has(r.checkId));
  const failed = failing.filter((r) => r.verdict === 'fail').length;
  const blocked = failing.length - failed;
  if (failed) reasons.push(`${failed} check${failed === 1 ? '' : 's'} failed`);
  if (blocked) reasons.push(`${blocked} check${blocked === 1 ? '' : 's'} blocked by a failed prerequisite`);
  for (const p of expected?.problems ?? []) reasons.push(`expected-failures ${expected!.file}: ${p.message}`);
  const warned = results.filter((r) => r.warnings?.length).length;
  if (strict && warned) reasons.push(`--strict: ${warned} check${warned === 1 ? '' : 's'} warned`);
  return { code: reasons.length ? 1 : 0, reasons };
}

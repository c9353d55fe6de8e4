// The audit's console summary: one line per client rule, then the totals, then the verdict and its
// exit code (INCONCLUSIVE, in its own words, when no rule was judged).

import type { AuditVerdict } from './types.ts';

const MARK: Record<string, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', 'not-exercised': 'n/a ', untestable: 'n/a ' };

export function formatVerdict(v: AuditVerdict): string {
  const lines = v.rules.map((r) => `${MARK[r.outcome]} ${r.id.padEnd(28)} §${r.section.padEnd(8)} ${r.outcome === 'untestable' ? `untestable: ${r.message}` : r.message}`);
  const c = v.counts;
  const tally = `${c.pass} passed, ${c.fail} failed, ${c.warn} warnings${v.strict ? ' (failing: --strict)' : ''}, ${c['not-exercised']} not exercised, ${c.untestable} untestable; ${v.exchanges.length} exchanges recorded${v.dropped ? ` (${v.dropped} more served past the recording cap, not judged)` : ''}`;
  lines.push(tally);
  // The exit and why: an audit that judged no rule says so in its own words, never "passed".
  lines.push(v.inconclusive ? `${v.inconclusive} (exit ${v.exitCode})` : v.verdict === 'fail' ? `FAILED (exit ${v.exitCode})` : `PASSED (exit ${v.exitCode})`);
  return `${lines.join('\n')}\n`;
}

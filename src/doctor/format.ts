// The doctor report as text: one line per probe, then what each missing profile field or control
// operation would unlock, the most checks first (the same unlock texts as `rules --needs`).

import type { DoctorReport, ProbeStatus } from './probe.ts';

const MARK: Record<ProbeStatus, string> = { ok: 'ok     ', missing: 'missing', problem: 'PROBLEM' };
const SHOWN_IDS = 6;

export function formatDoctor(r: DoctorReport): string {
  const lines = [`doctor: ${r.target}`];
  for (const p of r.probes) lines.push(`  ${MARK[p.status]}  ${p.what}: ${p.detail}`);
  lines.push('');
  if (r.exitCode !== 0) {
    lines.push(r.exitCode === 3 ? 'The target cannot be reached: fix that first (exit 3).' : 'The target refused the token: fix the credentials first (exit 2).');
    lines.push('');
  }
  lines.push(`${r.checks.runnable} of ${r.checks.total} checks can run with this profile.`);
  if (!r.unlocks.length) {
    lines.push('Nothing more to unlock: every check has what it needs.');
    return `${lines.join('\n')}\n`;
  }
  lines.push('What more the profile would unlock (a check may need several of these):');
  for (const u of r.unlocks) {
    const ids = u.checks.length > SHOWN_IDS ? `${u.checks.slice(0, SHOWN_IDS).join(', ')}, ... (${u.checks.length - SHOWN_IDS} more)` : u.checks.join(', ');
    lines.push(`  - ${u.unlock.replace(/`/g, '').replace(/\*\*or\*\*/g, 'or')}: ${u.checks.length} check(s): ${ids}`);
    lines.push(`      now: ${u.reason}`);
  }
  lines.push('', '`baas-conform rules --needs` prints the whole table; docs/validate-a-vendor-sandbox.md explains each field.');
  return `${lines.join('\n')}\n`;
}

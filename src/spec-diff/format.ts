// spec-diff as text: the classed changes, what each touches, and the package's verdicts.

import type { FieldChange } from './fields.ts';
import type { SpecDiff } from './diff.ts';
import type { Impact } from './impact.ts';
import type { PackageImpact } from './package.ts';

const mark = (breaking: boolean) => (breaking ? '  [breaking]' : '');
const shape = (f: FieldChange) => (f.change === 'type-changed' ? ` (${f.before?.type} -> ${f.after?.type})` : '');

export function formatSpecDiff(diff: SpecDiff, impact: Impact, pkg?: PackageImpact): string {
  const out: string[] = [];
  const total = diff.rules.length + diff.operations.length + diff.control.length + diff.webhooks.length;
  out.push(`spec-diff ${diff.old} -> ${diff.new}: ${total} change(s), ${diff.breaking} breaking`);
  if (diff.rules.length) out.push('', 'Rules:');
  for (const r of diff.rules) out.push(`  ${r.change} ${r.id}${r.errorRow ? ' (error row)' : r.side === 'client' ? ' (client rule)' : ''}${r.keys ? `: ${r.keys.join(', ')}` : ''}${mark(r.breaking)}`);
  if (diff.operations.length) out.push('', 'Operations:');
  for (const o of diff.operations) {
    out.push(`  ${o.change} ${o.operationId} (${o.parts.join(', ')})${mark(o.breaking)}`);
    for (const d of o.details) out.push(`    ${d}`);
    for (const f of o.fields) out.push(`    ${f.where} ${f.field} ${f.change}${shape(f)}${mark(f.breaking)}`);
  }
  if (diff.control.length) out.push('', 'Control operations:');
  for (const c of diff.control) out.push(`  ${c.change} ${c.id}${mark(c.breaking)}`);
  if (diff.webhooks.length) out.push('', 'Webhooks:');
  for (const w of diff.webhooks) {
    out.push(`  ${w.change} ${w.id}${mark(w.breaking)}`);
    for (const f of w.fields ?? []) out.push(`    ${f.field} ${f.change}${shape(f)}${mark(f.breaking)}`);
  }
  if (diff.files.length) out.push('', 'Files:');
  for (const f of diff.files) out.push(`  ${f.change} ${f.file}${f.classified ? '' : ' (UNCLASSIFIED)'}${f.note ? `: ${f.note}` : ''}`);
  out.push('', `Touched (check -> operation ${impact.reach === 'measured' ? 'from the recorded exchanges' : 'from the rules alone (--static)'}): ${impact.checks.length} check(s), ${impact.rules.length} rule(s)`);
  for (const c of impact.byChange) out.push(`  ${c.change}`, `    rules: ${c.rules.join(', ') || '-'}`, `    checks: ${c.checks.join(', ') || '-'}`);
  if (pkg) {
    out.push('', 'Package:');
    if (pkg.specMismatch?.length) out.push(`  WARNING the package was judged against another spec than OLD: ${pkg.specMismatch.join(', ')} differ`);
    out.push(`  invalidated: ${pkg.invalidated.checks.length} check verdict(s), ${pkg.invalidated.rules.length} rule verdict(s)`);
    for (const c of pkg.invalidated.checks) out.push(`    check ${c.id} (${c.verdict})`);
    for (const r of pkg.invalidated.rules) out.push(`    rule ${r.id} (${r.verdict})`);
    out.push(`  carried over: ${pkg.carried.checks.length} check verdict(s), ${pkg.carried.rules.length} rule verdict(s)`);
    if (pkg.unsigned.length) out.push(`  no signed verdict (rules added or removed): ${pkg.unsigned.join(', ')}`);
  }
  const command = pkg?.command ?? (impact.all ? 'baas-conform run' : impact.checks.length ? `baas-conform run ${impact.checks.map((c) => `--check ${c}`).join(' ')}` : '');
  out.push('', command ? `Re-judge: ${command}` : 'Re-judge: nothing (no check is touched)');
  return out.join('\n');
}

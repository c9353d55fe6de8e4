// The audit's files: audit.json (the verdict with every exchange), junit.xml (one testcase per client
// rule: fail -> failure, warn -> failure only under --strict, else a property; an audit that judged
// nothing -> one errored testcase), audit.html (each verdict with the exchanges it was drawn from).
// Records are already redacted (no secret).

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { auditPage } from '../report/audit-page.ts';
import { xmlEscape as esc } from '../report/xml.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import type { AuditPlan } from './plan.ts';
import type { AuditVerdict } from './types.ts';

export interface AuditReportPaths {
  json: string;
  junit: string;
  html: string;
}

export const AUDIT_FILES = { json: 'audit.json', junit: 'junit.xml', html: 'audit.html' } as const;

export function auditJson(v: AuditVerdict, plan: AuditPlan): string {
  return `${JSON.stringify({ tool: { name: TOOL_NAME, version: TOOL_VERSION }, kind: 'client-audit', exit_code: v.exitCode, verdict: v.verdict, ...(v.inconclusive ? { inconclusive: v.inconclusive } : {}), strict: v.strict, counts: v.counts, plan, rules: v.rules, exchanges: v.exchanges, deliveries: v.deliveries, dropped: v.dropped, stalls: v.stalls }, null, 2)}\n`;
}

export function auditJunit(v: AuditVerdict): string {
  const failures = v.rules.filter((r) => r.outcome === 'fail' || (v.strict && r.outcome === 'warn')).length;
  const skipped = v.rules.filter((r) => r.outcome === 'not-exercised' || r.outcome === 'untestable').length;
  const cases = v.rules.map((r) => {
    const name = `${r.id} (section ${r.section}, ${r.level})`;
    const evidence = r.exchanges.length ? ` [exchanges ${r.exchanges.map((s) => `#${s}`).join(' ')}]` : '';
    let inner = '';
    if (r.outcome === 'fail' || (v.strict && r.outcome === 'warn')) inner = `<failure message="${esc(r.message)}" type="${r.level}">${esc(`${r.quote}\n${r.message}${evidence}`)}</failure>`;
    else if (r.outcome === 'not-exercised' || r.outcome === 'untestable') inner = `<skipped message="${esc(`${r.outcome}: ${r.message}`)}"/>`;
    else if (r.outcome === 'warn') inner = `<system-out>${esc(`warning: ${r.message}${evidence}`)}</system-out>`;
    return `    <testcase classname="client-audit" name="${esc(name)}">${inner}</testcase>`;
  });
  // Every rule skipped reads green in a CI's JUnit view: an audit that judged nothing gets an errored testcase saying so.
  if (v.inconclusive) cases.push(`    <testcase classname="client-audit" name="audit.verdict"><error message="${esc(v.inconclusive)}" type="Inconclusive">${esc(v.inconclusive)}</error></testcase>`);
  const errors = v.inconclusive ? 1 : 0;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${esc(TOOL_NAME)} audit" tests="${cases.length}" failures="${failures}" errors="${errors}">\n  <testsuite name="client-audit" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

/** audit.html: rendered by the report's page template (src/report/audit-page.ts), strict CSP. */
export function auditHtml(v: AuditVerdict, plan?: AuditPlan): string {
  return auditPage(v, plan);
}

export async function writeAuditReports(v: AuditVerdict, plan: AuditPlan, paths: AuditReportPaths): Promise<void> {
  for (const p of Object.values(paths)) await mkdir(path.dirname(p), { recursive: true });
  await writeFile(paths.json, auditJson(v, plan));
  await writeFile(paths.junit, auditJunit(v));
  await writeFile(paths.html, auditHtml(v, plan));
}

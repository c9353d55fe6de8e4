// The audit's files: audit.json (the verdict with every exchange), junit.xml (one testcase per client
// rule: fail -> failure, warn -> failure only under --strict, else a property; an audit that judged
// nothing -> one errored testcase), audit.html (each verdict with the exchanges it was drawn from).
// Records are already redacted (no secret).

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { xmlEscape as esc } from '../report/xml.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import type { AuditPlan } from './plan.ts';
import type { AuditVerdict, Exchange, RuleOutcome } from './types.ts';

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

const BADGE: Record<RuleOutcome['outcome'], string> = { pass: '#1a7f37', fail: '#cf222e', warn: '#9a6700', 'not-exercised': '#57606a', untestable: '#57606a' };

function exchangeRow(e: Exchange): string {
  const injected = e.injected ? (e.injected.kind === 'rate-limit' ? `429${e.injected.retryAfter !== undefined ? ` Retry-After ${e.injected.retryAfter}` : ''}${e.injected.burst ? ` (${e.injected.burst})` : ''}` : e.injected.kind) : '';
  const took = e.endMs !== undefined ? `${e.endMs - e.startMs} ms` : '';
  const detail = JSON.stringify({ headers: e.headers, body: e.body, response: e.responseBody }, null, 2);
  return `<tr><td>#${e.seq}</td><td>${new Date(e.startMs).toISOString().slice(11, 23)}</td><td>${esc(e.server)}</td><td>${esc(e.method)} ${esc(e.path)}${e.query ? `?${esc(e.query)}` : ''}</td><td>${esc(e.operationId ?? 'no route')}</td><td>${esc(e.status ?? '')}${e.abandonedMs !== undefined ? ' abandoned' : ''}</td><td>${esc(injected)}</td><td>${took}</td><td><details><summary>show</summary><pre>${esc(detail)}</pre></details></td></tr>`;
}

export function auditHtml(v: AuditVerdict, plan?: AuditPlan): string {
  const bySeq = new Map(v.exchanges.map((e) => [e.seq, e]));
  const rules = v.rules.map((r) => {
    const rows = r.exchanges.map((s) => bySeq.get(s)).filter((e): e is Exchange => !!e).map(exchangeRow).join('\n');
    const table = rows ? `<table><thead><tr><th>#</th><th>time</th><th>host</th><th>request</th><th>operation</th><th>status</th><th>imposed</th><th>took</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : '';
    const dels = (r.deliveries ?? []).map((s) => v.deliveries.find((d) => d.seq === s)).filter(Boolean).map((d) => `<li>delivery ${d!.seq} ${esc(d!.path)} (${d!.attempt}): ${esc(d!.status ?? d!.error ?? '')}</li>`).join('');
    return `<section id="${esc(r.id)}"><h2><span class="badge" style="background:${BADGE[r.outcome]}">${esc(r.outcome)}</span> ${esc(r.id)} <small>section ${esc(r.section)} · ${esc(r.level)}</small></h2>
<blockquote>${esc(r.quote)}${r.cites ? `<br><small>cites ${esc(r.cites)}</small>` : ''}</blockquote><p>${esc(r.summary)}</p><p><b>${esc(r.message)}</b></p>${table}${dels ? `<ul>${dels}</ul>` : ''}</section>`;
  }).join('\n');
  const c = v.counts;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Client audit</title><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}.badge{color:#fff;padding:1px 8px;border-radius:8px;font-size:13px}blockquote{color:#555;border-left:3px solid #ccc;margin:0;padding-left:1em}pre{white-space:pre-wrap;max-width:60em}</style></head>
<body><h1>Client audit: ${v.verdict === 'inconclusive' ? 'inconclusive' : v.verdict === 'pass' ? 'passed' : 'failed'}${v.strict ? ' (strict)' : ''}</h1>
${v.inconclusive ? `<p><b>${esc(v.inconclusive)}</b> (exit ${v.exitCode}).</p>` : ''}
<p>${c.pass} passed, ${c.fail} failed, ${c.warn} warnings, ${c['not-exercised']} not exercised, ${c.untestable} untestable; ${v.exchanges.length} exchanges, ${v.deliveries.length} webhook deliveries.</p>
${plan ? `<p>Judged against the plan's scaled times: request timeout ${plan.scale.request_timeout_seconds} s, token refresh buffer ${plan.scale.refresh_buffer_seconds} s, S2S tokens living ${plan.scale.token_lifetime_seconds} s (scaled from the section 8 values; the rules quote them); seed ${plan.seed}.</p>` : ''}
${rules}</body></html>\n`;
}

export async function writeAuditReports(v: AuditVerdict, plan: AuditPlan, paths: AuditReportPaths): Promise<void> {
  for (const p of Object.values(paths)) await mkdir(path.dirname(p), { recursive: true });
  await writeFile(paths.json, auditJson(v, plan));
  await writeFile(paths.junit, auditJunit(v));
  await writeFile(paths.html, auditHtml(v, plan));
}

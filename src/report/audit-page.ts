// The client audit's page (reports/audit.html.hbs): each client rule's verdict with the exchanges it
// was drawn from, under the same strict CSP as every other report (no inline style, no script).
// Records arrive redacted (src/audit/redact.ts); Handlebars escapes every value.

import type { AuditPlan } from '../audit/plan.ts';
import type { AuditVerdict, Exchange } from '../audit/types.ts';
import { pageTemplate } from './html-template.ts';

function imposed(e: Exchange): string {
  if (!e.injected) return '';
  if (e.injected.kind !== 'rate-limit') return e.injected.kind;
  return `429${e.injected.retryAfter !== undefined ? ` Retry-After ${e.injected.retryAfter}` : ''}${e.injected.burst ? ` (${e.injected.burst})` : ''}`;
}

function row(e: Exchange) {
  return {
    seq: e.seq,
    time: new Date(e.startMs).toISOString().slice(11, 23),
    server: e.server,
    request: `${e.method} ${e.path}${e.query ? `?${e.query}` : ''}`,
    operation: e.operationId ?? 'no route',
    status: `${e.status ?? ''}${e.abandonedMs !== undefined ? ' abandoned' : ''}`,
    imposed: imposed(e),
    took: e.endMs !== undefined ? `${e.endMs - e.startMs} ms` : '',
    detail: JSON.stringify({ headers: e.headers, body: e.body, response: e.responseBody }, null, 2),
  };
}

export function auditPage(v: AuditVerdict, plan?: AuditPlan): string {
  const bySeq = new Map(v.exchanges.map((e) => [e.seq, e]));
  const rules = v.rules.map((r) => ({
    ...r,
    outcomeClass: `v-${r.outcome}`,
    rows: r.exchanges.map((s) => bySeq.get(s)).filter((e): e is Exchange => !!e).map(row),
    deliveries: (r.deliveries ?? []).flatMap((s) => v.deliveries.filter((d) => d.seq === s)).map((d) => ({ seq: d.seq, path: d.path, attempt: d.attempt, result: d.status ?? d.error ?? '' })),
  }));
  const verdictText = v.verdict === 'inconclusive' ? 'inconclusive' : v.verdict === 'pass' ? 'passed' : 'failed';
  return pageTemplate('audit', ['base', 'audit']).render({
    verdictText,
    verdictClass: `v-${v.verdict}`,
    strict: v.strict,
    inconclusive: v.inconclusive,
    exitCode: v.exitCode,
    counts: v.counts,
    notExercised: v.counts['not-exercised'],
    exchangeCount: v.exchanges.length,
    deliveryCount: v.deliveries.length,
    plan,
    rules,
  });
}

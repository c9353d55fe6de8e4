// The audit's files from a verdict holding what a hostile client can send: markup in paths, bodies
// and headers stays text, and each verdict shows the exchanges it was drawn from.

import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN } from './plan.ts';
import { auditHtml, auditJson, auditJunit } from './report.ts';
import type { AuditVerdict } from './types.ts';

const verdict: AuditVerdict = {
  exitCode: 1,
  verdict: 'fail',
  strict: false,
  counts: { pass: 0, fail: 1, warn: 1, 'not-exercised': 0, untestable: 0 },
  rules: [
    { id: 'CLIENT-PAN-PCI-ONLY', level: 'required', section: '4.rule3', quote: 'tokenize <first>', summary: 's', status: 'fail', outcome: 'fail', message: 'card on #1 <script>alert(1)</script>', exchanges: [1] },
    { id: 'CLIENT-TOKEN-CACHE', level: 'recommended', section: '5', quote: 'q', summary: 's', status: 'fail', outcome: 'warn', message: 'too many token calls', exchanges: [] },
  ],
  exchanges: [{ seq: 1, server: 'api', method: 'POST', path: '/x/<img src=x onerror=alert(1)>', query: 'a="b"', headers: { 'x-evil': '</pre><script>' }, body: { n: '<b>' }, bodyText: '{}', startMs: 0, endMs: 5, status: 404 }],
  deliveries: [],
  dropped: 0,
  stalls: [],
};

describe('audit reports', () => {
  it('escape everything the client sent, and list the exchanges of each verdict', () => {
    const html = auditHtml(verdict);
    expect(html).not.toMatch(/<script>|<img /);
    // Handlebars escapes = as well as < and >.
    expect(html).toContain('/x/&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
    expect(html).toMatch(/<section id="CLIENT-PAN-PCI-ONLY"[^>]*>[\s\S]*<td>#1<\/td>/);
    // The shared strict CSP: the stylesheet allowed by its hash, never 'unsafe-inline', no style attribute.
    expect(html).toContain('Content-Security-Policy" content="default-src &#x27;none&#x27;; style-src &#x27;sha256-');
    expect(html).not.toMatch(/unsafe-inline|style="/);
    expect(auditHtml(verdict, DEFAULT_PLAN)).toContain(`request timeout ${DEFAULT_PLAN.scale.request_timeout_seconds} s,`);
  });

  it('junit: a required failure is a failure, a warning only under strict', () => {
    const x = auditJunit(verdict);
    expect(x).toMatch(/name="CLIENT-PAN-PCI-ONLY[^"]*"><failure message="card on #1 &lt;script&gt;/);
    expect(x).toMatch(/name="CLIENT-TOKEN-CACHE[^"]*"><system-out>warning: /);
    expect(auditJunit({ ...verdict, strict: true })).toMatch(/name="CLIENT-TOKEN-CACHE[^"]*"><failure/);
    expect(x).toContain('failures="1"');
  });

  it('json carries the plan, the verdicts and the exchanges', () => {
    const j = JSON.parse(auditJson(verdict, DEFAULT_PLAN));
    expect(j).toMatchObject({ kind: 'client-audit', exit_code: 1, plan: { seed: DEFAULT_PLAN.seed }, rules: [{ id: 'CLIENT-PAN-PCI-ONLY', exchanges: [1] }, {}], exchanges: [{ seq: 1 }] });
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult, Exchange, RunEvent } from '../events/index.ts';
import { createReporters, ConsoleReporter } from './index.ts';
import { SCHEMA_FILES, validatorFor } from '../baseline/schemas.ts';
import { blockedText as junitBlockedText } from './junit.ts';
import { rootCauseLines } from './outcome-lines.ts';

const HOSTILE = `<script>alert("x")</script> & ' ]]> \u0000\u001b[31m`;

function exchange(checkId: string, status: number, body: string): Exchange {
  return {
    checkId,
    request: { method: 'POST', url: 'http://127.0.0.1:9/api/v1/token', headers: { authorization: 'Bearer ***' }, body: '{"client_secret":"***"}' },
    response: { status, headers: { 'content-type': 'application/json' }, body },
    durationMs: 3,
    attempt: 1,
    curl: `curl -sS -i -X POST 'http://127.0.0.1:9/api/v1/token' -H 'authorization: Bearer ***'`,
  };
}

function events(): RunEvent[] {
  const base = { title: 'T', area: 'errors', section: '7', rules: ['ERR-A'], durationMs: 5, requests: 1, seed: 77 };
  const failEx = exchange('errors.bad', 400, `{"error_description":${JSON.stringify(HOSTILE)}}`);
  const results: CheckResult[] = [
    { ...base, checkId: 'errors.good', verdict: 'pass' },
    {
      ...base,
      checkId: 'errors.bad',
      title: `bad ${HOSTILE}`,
      verdict: 'fail',
      failure: { message: `error_description ${HOSTILE}`, rules: ['ERR-A'], counterexample: `Counterexample: ["${HOSTILE}"]`, exchange: failEx },
    },
    { ...base, checkId: 'auth.skipped', area: 'auth', verdict: 'skip', reason: 'needs the test-control API: profile.control_url is not set' },
    {
      ...base,
      checkId: 'schema.create-recipient-v2',
      area: 'schema',
      rules: ['ENDPOINT-RESPONSE-SCHEMA'],
      verdict: 'blocked',
      blocked: { operation: 'tokenizeCard', rules: ['FLOW-PUSH-TO-CARD'], message: `POST {pci_url}/b2b/cards/oct: expected a 2xx answer, got HTTP 404: ${HOSTILE}` },
    },
    { ...base, checkId: 'limits.transport.tls', area: 'limits', verdict: 'skip', reason: 'TLS can only be checked on https', warnings: ['base_url is plain HTTP; section 8: HTTPS, TLS 1.2 or newer'] },
  ];
  return [
    { type: 'run-started', runId: 'r1', seed: 1234, target: 'http://user:pw@127.0.0.1:9', targetName: 'local', checks: 3, safe: false, startedAt: '2025-01-01T00:00:00.000Z', toolVersion: '0.1.0' },
    { type: 'check-started', checkId: 'errors.good', title: 'T' },
    { type: 'exchange', exchange: exchange('errors.good', 200, '{"ok":true}') },
    { type: 'check-finished', result: results[0] },
    { type: 'check-started', checkId: 'errors.bad', title: 'T' },
    { type: 'exchange', exchange: failEx },
    { type: 'check-finished', result: results[1] },
    { type: 'check-started', checkId: 'auth.skipped', title: 'T' },
    { type: 'check-finished', result: results[2] },
    { type: 'check-started', checkId: 'schema.create-recipient-v2', title: 'T' },
    { type: 'check-finished', result: results[3] },
    { type: 'check-started', checkId: 'limits.transport.tls', title: 'T' },
    { type: 'warning', checkId: 'limits.transport.tls', message: results[4].warnings![0] },
    { type: 'check-finished', result: results[4] },
    {
      type: 'run-finished',
      summary: { rootCauses: 2, passed: 1, failed: 1, blocked: 1, skipped: 2, warned: 1, total: 5, requests: 2, durationMs: 20, rules: { total: 2, passed: 0, failed: 1, blocked: 0, skipped: 0, uncovered: 1, untestable: 0 } },
      rootCauses: [
        { kind: 'blocking', id: 'tokenizeCard', operation: 'tokenizeCard', rules: ['FLOW-PUSH-TO-CARD'], message: 'HTTP 404', checks: [], blocked: ['schema.create-recipient-v2'] },
        { kind: 'failure', id: 'errors.bad', rules: ['ERR-A'], message: 'bad', checks: ['errors.bad'], blocked: [] },
      ],
      exit: { code: 1, reasons: ['1 check failed', '1 check blocked by a failed prerequisite'] },
      rules: [
        { id: 'ERR-A', section: '7', kind: 'error', summary: `summary ${HOSTILE}`, verdict: 'fail', checks: ['errors.good', 'errors.bad'], reason: HOSTILE },
        { id: 'ERR-B', section: '7', kind: 'error', summary: 'b', verdict: 'uncovered', checks: [], reason: 'no check covers this rule' },
      ],
      results,
      finishedAt: '2025-01-01T00:00:01.000Z',
    },
  ];
}

async function writeAll() {
  const dir = await mkdtemp(join(tmpdir(), 'bc-report-'));
  const paths = { json: join(dir, 'out/results.json'), junit: join(dir, 'out/junit.xml'), html: join(dir, 'out/report.html') };
  const reporters = createReporters({ console: false, ...paths });
  for (const e of events()) for (const r of reporters) await r.onEvent(e);
  for (const r of reporters) await r.close?.();
  return {
    json: JSON.parse(await readFile(paths.json, 'utf8')),
    junit: await readFile(paths.junit, 'utf8'),
    html: await readFile(paths.html, 'utf8'),
    paths,
  };
}

/** Minimal XML well-formedness check: balanced tags, quoted attributes, escaped text, legal characters. */
function assertWellFormedXml(xml: string): void {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  expect(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml)).toBe(false);
  const body = xml.replace(/^<\?xml[^>]*\?>/, '');
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = token.exec(body))) {
    consumed = token.lastIndex;
    const [, close, name, , selfClose, text] = m;
    if (text !== undefined) {
      expect(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(text)).toBe(false);
      if (!stack.length) expect(text.trim()).toBe('');
      continue;
    }
    if (close) expect(stack.pop()).toBe(name);
    else if (!selfClose) stack.push(name);
  }
  expect(consumed).toBe(body.length);
  expect(stack).toEqual([]);
  for (const attr of xml.matchAll(/="([^"]*)"/g)) expect(attr[1]).not.toMatch(/[<&](?!(amp|lt|gt|quot|apos);)/);
}

describe('reporters', () => {
  it('HTML escapes hostile text: a <script> from the target renders inert', async () => {
    const { html } = await writeAll();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain("Content-Security-Policy");
    expect(html).toContain('errors.bad');
    expect(html).toContain('ERR-B');
    expect(html).toContain('curl -sS -i -X POST');
    expect(html).toContain('--seed 1234 --check errors.bad');
    expect(html).not.toContain('pw@');
  });

  it('JUnit XML is well-formed, one suite per area, with skipped and failure', async () => {
    const { junit } = await writeAll();
    assertWellFormedXml(junit);
    expect(junit).toContain('<testsuite name="errors" tests="2" failures="1"');
    expect(junit).toContain('<testsuite name="auth" tests="1" failures="0" errors="0" skipped="1"');
    expect(junit).toContain('<skipped message="needs the test-control API: profile.control_url is not set"/>');
    expect(junit).toMatch(/<failure message="error_description &lt;script&gt;/);
    expect(junit).toContain('Counterexample: [&quot;&lt;script&gt;');
    expect(junit).toContain('curl: curl -sS');
    // Still one testcase per check; blocked is a failure naming the blocking operation.
    expect(junit.match(/<testcase /g)).toHaveLength(5);
    expect(junit).toMatch(/<testcase classname="schema" name="schema.create-recipient-v2"[^]*?<failure message="blocked by tokenizeCard: POST \{pci_url\}\/b2b\/cards\/oct: expected a 2xx answer, got HTTP 404: &lt;script&gt;[^"]*" type="Blocked">/);
    expect(junit).toContain('blocking rules: FLOW-PUSH-TO-CARD');
    expect(junit).toContain('<system-out>WARN: base_url is plain HTTP');
    expect(junit).toContain('<testsuites name="baas-conform" tests="5" failures="2"');
    const py = spawnSync('python3', ['-c', 'import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.buffer.read())'], { input: junit });
    if (!py.error) expect(py.status, py.stderr?.toString()).toBe(0);
  });

  it('results.json has the run, no secrets, and exchanges only for failed checks', async () => {
    const { json } = await writeAll();
    expect(json).toMatchObject({ kind: 'baas-conform/results', version: 1, tool: { name: 'baas-conform', version: '0.1.0' }, seed: 1234, target: { name: 'local', base_url: 'http://127.0.0.1:9' } });
    expect(json.summary.failed).toBe(1);
    expect(json.checks.map((c: any) => [c.checkId, !!c.exchanges])).toEqual([
      ['errors.good', false],
      ['errors.bad', true],
      ['auth.skipped', false],
      ['schema.create-recipient-v2', false],
      ['limits.transport.tls', false],
    ]);
    expect(json.rootCauses.map((c: any) => c.id)).toEqual(['tokenizeCard', 'errors.bad']);
    expect(json.checks[3].blocked.operation).toBe('tokenizeCard');
    expect(json.checks[4].warnings).toHaveLength(1);
    expect(json.exit.code).toBe(1);
    expect(json.rules).toHaveLength(2);
    const validate = validatorFor(SCHEMA_FILES.results);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(JSON.stringify(json)).not.toContain('pw@');
  });

  it('console prints one line per check, no colour off a TTY, and the replay command', () => {
    let out = '';
    const r = new ConsoleReporter({ stream: { write: (s: string) => (out += s), isTTY: false }, replayBase: 'baas-conform run --profile p.json' });
    for (const e of events()) r.onEvent(e);
    expect(out).not.toContain('\u001b');
    const lines = out.split('\n');
    expect(lines.filter((l) => /^(PASS|FAIL|SKIP|BLOCKED) /.test(l))).toHaveLength(5);
    expect(out).toContain('BLOCKED schema.create-recipient-v2 — by tokenizeCard (FLOW-PUSH-TO-CARD)');
    // Root causes come before the check counts; warnings are shown apart.
    expect(out.indexOf('Root causes: 2')).toBeGreaterThan(-1);
    expect(out.indexOf('Root causes: 2')).toBeLessThan(out.indexOf('Checks:'));
    expect(out).toContain('blocks 1: schema.create-recipient-v2');
    expect(out).toMatch(/Warnings \(recommended by the spec but not required, or accepted only under a reading.*\n  limits\.transport\.tls: base_url is plain HTTP/);
    expect(out).toContain('Checks: 1 passed, 1 failed, 1 blocked, 2 skipped, 1 warned');
    expect(out).toContain('Exit 1: 1 check failed; 1 check blocked by a failed prerequisite');
    expect(out).toContain('seed 1234');
    expect(out).toContain('replay: baas-conform run --profile p.json --seed 1234 --check errors.bad');
    let tty = '';
    const colored = new ConsoleReporter({ stream: { write: (s: string) => (tty += s), isTTY: true }, color: true });
    colored.onEvent(events()[3]);
    expect(tty).toContain('\u001b[32mPASS');
  });
});

describe('a block that names no rule', () => {
  // Blocked by a profile setting the target refused (operation_auth), an unread answer or a rate limit: no rule of the target was broken.
  const result: CheckResult = {
    title: 'T', area: 'identity', section: '5', rules: ['IDENTITY-ISOLATION'], durationMs: 5, requests: 1, seed: 77,
    checkId: 'identity.company.isolation',
    verdict: 'blocked',
    blocked: { operation: 'tokenizeCard', rules: [], message: 'POST {pci_url}/b2b/cards/oct refused the credentials; set profile.operation_auth.tokenizeCard' },
  };

  it('console, root causes and JUnit never print empty parentheses and say no rule was broken', async () => {
    let out = '';
    const r = new ConsoleReporter({ stream: { write: (s: string) => (out += s), isTTY: false } });
    r.onEvent({ type: 'check-finished', result });
    expect(out).not.toContain('()');
    expect(out).toContain('BLOCKED identity.company.isolation — by tokenizeCard (no rule broken: the cause is outside the target\'s rules): POST {pci_url}');
    const lines = rootCauseLines({ type: 'run-finished', rootCauses: [{ kind: 'blocking', id: 'tokenizeCard', operation: 'tokenizeCard', rules: [], message: 'refused', checks: [], blocked: ['identity.company.isolation'] }], summary: { failed: 0, blocked: 1 } } as never, (s) => s);
    expect(lines.join('\n')).toContain('operation tokenizeCard failed as a prerequisite — no rule broken (the cause is outside the target\'s rules): refused');
    const junit = junitBlockedText(result as never);
    expect(junit).toContain('blocking rules: none broken (the cause is outside the target\'s rules)');
  });
});

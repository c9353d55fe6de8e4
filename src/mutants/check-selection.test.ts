// The selection cannot leave out a check that names a broken rule: (1) a failure names only its
// check's own rules or a rule of every answer (the runner's gate, src/runner/failure.ts, fed every
// kind of error), and only the audit and the transport layer raise the two errors that pass that gate
// with foreign rules (found in the sources by the TypeScript parser); (2) for every variant of every
// set, the selection holds every check of its broken rule and its reach, and every check when the
// rule is one of every answer; (3) on loopback, a faulty variant is caught by the same checks with
// and without the selection, the run narrowed starting the services the full run starts.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadChecks } from '../../suites/index.ts';
import { AuditFailure, auditAnswer, type AuditedAnswer } from '../checks/audit.ts';
import { CheckFailure } from '../checks/signals.ts';
import type { Check } from '../checks/types.ts';
import type { CheckHttpClient } from '../client/index.ts';
import { JSON_BODY_RULE } from '../client/decode.ts';
import { TransportError } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';
import { PACKAGE_ROOT } from '../package/index.ts';
import { CheckTimeout, failureFromError } from '../runner/failure.ts';
import { checksFor, everyAnswerRules } from './check-selection.ts';
import { ALL_SETS, buildMutantBank } from './registry.ts';
import { runVariant } from './run-variant.ts';
import { SELFTEST_DEFAULTS } from './selftest.ts';
import { brokenRules } from './variant.ts';

const model = await loadModel();
const checks = await loadChecks();
const every = everyAnswerRules(model);
const http = { lastExchange: undefined, exchangeOf: () => undefined } as unknown as CheckHttpClient;
const ruleIds = model.rules.map((r) => r.id);
const everyIds = ruleIds.filter((r) => every.has(r));

describe('check selection: what a failure can name', () => {
  it('every answer is held to the audit rules, the JSON body rule and the request budget, all rules of the model', () => {
    expect([...every].sort()).toEqual(['ENDPOINT-RESPONSE-SCHEMA', 'ERR-BODY-SHAPE', 'ERR-CATEGORY-STATUS', 'GENERAL-TRANSPORT-JSON', model.limits.request_timeout!.id, 'VERSION-FIELD-NAMING'].sort());
    for (const r of every) expect(ruleIds).toContain(r);
  });

  it("a failure names its check's own rules or a rule of every answer, whatever the error names", () => {
    const error = fc.oneof(
      fc.subarray(ruleIds).map((rules) => new CheckFailure('assertion', { rules })),
      fc.subarray(everyIds).map((rules) => new AuditFailure('audit', { rules })),
      fc.constantFrom(...(['TIMEOUT', 'CONNECTION_RESET', 'BODY_TOO_DEEP', 'DECODE', 'TRANSPORT'] as const)).map((code) => new TransportError(code, 'transport', 'http://127.0.0.1:1/x', code === 'BODY_TOO_DEEP' || code === 'DECODE' ? JSON_BODY_RULE : undefined)),
      fc.constant(new Error('a bug in the check')),
    );
    fc.assert(
      fc.property(fc.constantFrom(...checks), error, fc.boolean(), (check, err, timedOut) => {
        const f = failureFromError(err, check as Check, http, (s) => s, timedOut ? new CheckTimeout(1000) : undefined, model);
        const outside = f.rules.filter((r) => !(check.rules as readonly string[]).includes(r));
        expect(outside.filter((r) => !every.has(r))).toEqual([]);
        // A failure naming no rule gets the check's own (never credited unless it is the check's sole rule).
        if (!f.rulesNamed) expect(f.rules).toEqual(check.rules);
      }),
      { numRuns: 300, seed: 32 },
    );
  });

  it('the audit of an answer names only its rules', () => {
    const bad: AuditedAnswer[] = [
      { status: 400, headers: {}, text: 'no', json: undefined },
      { status: 400, headers: {}, text: '{}', json: { error_category: { category: 'X', http_status_code: 401 } } },
      { status: 200, headers: { 'content-type': 'text/plain' }, text: 'x', json: undefined },
      { status: 200, headers: { 'content-type': 'application/json' }, text: '{"x":1}', json: { x: 1 } },
    ];
    for (const op of model.operations.keys()) for (const res of bad) {
      const f = auditAnswer(model, op, res);
      if (f) expect(every).toContain(f.rule);
    }
  });

  it('only the audit raises an AuditFailure, and only the JSON body rule rides on a TransportError', () => {
    const files = ts.sys.readDirectory(path.join(PACKAGE_ROOT, 'src'), ['.ts']).concat(ts.sys.readDirectory(path.join(PACKAGE_ROOT, 'suites'), ['.ts'])).filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.testkit.ts'));
    const audits: string[] = [];
    const ruled: string[] = [];
    for (const file of files) {
      const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
      const visit = (n: ts.Node): void => {
        if (ts.isNewExpression(n) && ts.isIdentifier(n.expression)) {
          const rel = path.relative(PACKAGE_ROOT, file);
          if (n.expression.text === 'AuditFailure') audits.push(rel);
          if (n.expression.text === 'TransportError' && (n.arguments?.length ?? 0) > 3) ruled.push(`${rel}: ${n.arguments![3].getText(src)}`);
        }
        ts.forEachChild(n, visit);
      };
      visit(src);
    }
    expect(audits).toEqual([path.join('src', 'checks', 'audit.ts')]);
    expect(new Set(ruled.map((r) => r.split(': ')[1]))).toEqual(new Set(['JSON_BODY_RULE']));
  });
});

describe('check selection: every variant', () => {
  const bank = buildMutantBank(ALL_SETS);

  it('keeps every check of a broken rule and of the reach, and every check for a rule of every answer, a benign variant or the baseline', () => {
    expect(checksFor(undefined, checks, model)).toHaveLength(checks.length);
    let narrowed = 0;
    for (const v of bank) {
      const ids = new Set(checksFor(v, checks, model).map((c) => c.id));
      expect(checksFor(v, checks, model, true)).toHaveLength(checks.length);
      const broken: readonly string[] = brokenRules(v);
      if (v.kind === 'benign' || broken.some((r) => every.has(r))) {
        expect(ids.size, v.id).toBe(checks.length);
        continue;
      }
      const needed = checks.filter((c) => c.rules.some((r) => broken.includes(r)) || v.reach?.includes(c.id)).map((c) => c.id);
      expect(needed.length, `${v.id}: no check covers ${broken.join(', ')}`).toBeGreaterThan(0);
      expect([...ids].sort(), v.id).toEqual(needed.sort());
      if (ids.size < checks.length) narrowed++;
    }
    // A reach naming a check of another rule (none of the bank's does today) is kept too.
    const other = checks.find((c) => !c.rules.includes('ERR-TOKEN-GRANT-TYPE-INVALID'))!;
    const reaching = { ...bank.find((v) => v.id === 'token.grant-type.not-checked')!, reach: [other.id] };
    expect(checksFor(reaching, checks, model).map((c) => c.id)).toContain(other.id);
    // The point of it: most faulty variants run a few checks.
    expect(narrowed).toBeGreaterThan(bank.filter((v) => v.kind === 'faulty').length / 2);
  });
});

describe('check selection on loopback', () => {
  it('a faulty variant is caught by the same checks with and without the selection, with the services of the full run', async () => {
    // Its one selected check judges webhooks only when a receiver is up, which the runner starts for
    // the checks that need one: narrowed, the run must still start it (RunOptions.servicesFor).
    const variant = bank().find((v) => v.id === 'feeds.webhooks.wallets-renamed')!;
    const ctx = { checks, model, seed: 1, timeoutBudgetMs: 10_000, checkConcurrency: 8, profile: 'full' as const, rateLimit: SELFTEST_DEFAULTS.rateLimit };
    const selected = await runVariant(variant, ctx);
    const all = await runVariant(variant, { ...ctx, allChecks: true });
    expect(selected.error ?? all.error).toBeUndefined();
    expect(selected.checksRun).toBeLessThan(all.checksRun);
    expect(all.checksRun).toBe(checks.length);
    const naming = (r: typeof all) => r.failing.filter((f) => f.named && f.rules.includes(variant.kind === 'faulty' ? variant.breaks : '')).map((f) => f.checkId).sort();
    expect(naming(selected)).not.toEqual([]);
    expect(naming(selected)).toEqual(naming(all));
    expect(selected.unjudgedChecks).toEqual([]);
  }, 180_000);
});

function bank() {
  return buildMutantBank(ALL_SETS);
}

// spec-diff on real edits of a copy of spec/: one answer field, one error row, one alias rule. A
// one-field change names only the checks and verdicts that field touches (measured: the checks that
// reach the operation and judge a rule of its answers), the rest of a package carries over, and a
// change no class explains carries nothing over. Field classes follow oasdiff's reading.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChecks } from '../../suites/index.ts';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { DEFAULT_SPEC_DIR, loadModel } from '../model/index.ts';
import { checksByRule } from '../reach/index.ts';
import { diffFields, impactOf, specDiff, specFiles } from './index.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'spec-diff-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** A copy of spec/ with one literal text replaced in one file (failing when the text is not there). */
async function edited(name: string, file: string, from: string, to: string): Promise<string> {
  const dir = path.join(tmp, name);
  await cp(DEFAULT_SPEC_DIR, dir, { recursive: true });
  const text = await readFile(path.join(dir, file), 'utf8');
  expect(text.split(from), `${file} holds ${from} once`).toHaveLength(2);
  await writeFile(path.join(dir, file), text.replace(from, to));
  return dir;
}

/** A certification package's verdict files as certify writes them: every check and rule passed on this spec. */
async function fakePackage(): Promise<string> {
  const dir = path.join(tmp, 'package');
  const checks = await loadChecks();
  const model = await loadModel();
  const byRule = checksByRule(checks);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'results.json'), JSON.stringify({
    kind: 'baas-conform/results',
    checks: checks.map((c) => ({ checkId: c.id, rules: c.rules, verdict: 'pass', extra: 'ignored' })),
    rules: model.rules.map((r) => ({ id: r.id, verdict: 'pass', checks: byRule.get(r.id) ?? [] })),
  }));
  await writeFile(path.join(dir, 'certificate.json'), JSON.stringify({ spec: { algorithm: 'sha256', files: await specFiles(DEFAULT_SPEC_DIR) }, future: { field: 1 } }));
  return dir;
}

async function cli(args: string[]): Promise<{ code: number; json: any }> {
  const c = captureIo();
  const code = await main(['spec-diff', ...args, '--json'], c.io);
  return { code, json: JSON.parse(c.out()) };
}

describe('field classes (oasdiff reading)', () => {
  const obj = (props: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties: props, required });
  it('breaks an answer by a field removed, retyped or no longer required; an added field does not', () => {
    const before = obj({ id: { type: 'string' }, n: { type: 'integer' } }, ['id', 'n']);
    expect(diffFields(before, obj({ id: { type: 'string' }, n: { type: 'integer' }, x: { type: 'string' } }, ['id', 'n']), 'response')).toEqual([expect.objectContaining({ field: '$.x', change: 'added', breaking: false })]);
    expect(diffFields(before, obj({ id: { type: 'string' } }, ['id']), 'response')).toEqual([expect.objectContaining({ field: '$.n', change: 'removed', breaking: true })]);
    expect(diffFields(before, obj({ id: { type: 'integer' }, n: { type: 'integer' } }, ['id', 'n']), 'response')[0]).toMatchObject({ change: 'type-changed', breaking: true });
    expect(diffFields(before, obj({ id: { type: 'string' }, n: { type: 'integer' } }, ['id']), 'response')[0]).toMatchObject({ change: 'now-optional', breaking: true });
  });
  it('breaks a request by a required field added or an optional one made required; a nested removal is one change', () => {
    const before = obj({ a: { type: 'string' }, p: obj({ q: { type: 'string' } }) }, ['a']);
    expect(diffFields(before, obj({ a: { type: 'string' }, p: obj({ q: { type: 'string' } }), b: { type: 'string' } }, ['a', 'b']), 'request')[0]).toMatchObject({ field: '$.b', change: 'added', breaking: true });
    expect(diffFields(before, obj({ a: { type: 'string' }, p: obj({ q: { type: 'string' } }) }, ['a', 'p']), 'request')[0]).toMatchObject({ change: 'now-required', breaking: true });
    expect(diffFields(before, obj({ a: { type: 'string' } }, ['a']), 'request')).toEqual([expect.objectContaining({ field: '$.p', change: 'removed', breaking: false })]);
  });
});

describe('spec-diff on real edits of spec/', () => {
  it('one answer field: names only the operations sharing it, the checks that reach them, and only their verdicts', async () => {
    const dir = await edited('field', 'openapi.yaml', '\n        details_id: { description: Type not shown. }', '\n        details_id: { type: string, description: Type not shown. }');
    const pkg = await fakePackage();
    const { code, json } = await cli([DEFAULT_SPEC_DIR, dir, '--package', pkg]);
    expect(code).toBe(1);
    expect(json.diff.rules).toEqual([]);
    expect(json.diff.operations.map((o: any) => o.operationId).sort()).toEqual(['completeBankAccount', 'createBankAccount']);
    for (const o of json.diff.operations) expect(o.fields).toEqual([expect.objectContaining({ field: '$.details_id', change: 'type-changed', breaking: true, where: expect.stringMatching(/^2/) })]);
    expect(json.diff.files).toEqual([{ file: 'openapi.yaml', change: 'changed', classified: true }]);
    const touched: string[] = json.impact.checks;
    expect(json.impact.reach).toBe('measured');
    expect(touched).toEqual(expect.arrayContaining(['schema.create-bank-account', 'schema.complete-bank-account', 'bank.accounts.types']));
    // Not the other answers' schema checks, no error row, no check of another area's rule.
    expect(touched.filter((c) => c.startsWith('schema.') && !c.includes('bank-account'))).toEqual([]);
    expect(touched.filter((c) => c.startsWith('errors.') || c.startsWith('aliases.') || c.startsWith('auth.'))).toEqual([]);
    expect(json.package.specMismatch).toEqual([]);
    expect(json.package.invalidated.checks.map((c: any) => c.id).sort()).toEqual([...touched].sort());
    const all = (await loadChecks()).length;
    expect(json.package.carried.checks).toHaveLength(all - touched.length);
    expect(json.package.carried.rules).toContain('ERR-TOKEN-GRANT-TYPE-INVALID');
    expect(json.package.command).toBe(`baas-conform run ${touched.map((c) => `--check ${c}`).join(' ')}`);
  }, 240_000);

  it('one error row: the row is a changed, breaking error rule, and only its checks are touched', async () => {
    const dir = await edited('row', 'rules/errors.yaml', 'message: "Invalid value for grant type"', 'message: "Invalid grant type"');
    const { code, json } = await cli([DEFAULT_SPEC_DIR, dir, '--static']);
    expect(code).toBe(1);
    expect(json.diff.rules).toEqual([{ id: 'ERR-TOKEN-GRANT-TYPE-INVALID', side: 'server', change: 'changed', errorRow: true, keys: ['message'], breaking: true }]);
    expect(json.diff.operations).toEqual([]);
    expect(json.impact.checks).toEqual(checksByRule(await loadChecks()).get('ERR-TOKEN-GRANT-TYPE-INVALID'));
  }, 120_000);

  it('one alias rule: the deprecated name changed touches the alias checks only', async () => {
    const dir = await edited('alias', 'rules/aliases.yaml', 'id: ALIAS-3DS-OWNER, section: "9.6", direction: response, old: owner,', 'id: ALIAS-3DS-OWNER, section: "9.6", direction: response, old: owner_address,');
    const { json } = await cli([DEFAULT_SPEC_DIR, dir, '--static']);
    expect(json.diff.rules).toEqual([expect.objectContaining({ id: 'ALIAS-3DS-OWNER', change: 'changed', keys: ['old'], breaking: true, errorRow: false })]);
    expect(json.impact.checks).toEqual(checksByRule(await loadChecks()).get('ALIAS-3DS-OWNER'));
  }, 120_000);

  it('prose carries every verdict over; a fact outside rules and operations carries none', async () => {
    const model = await loadModel();
    const checks = await loadChecks();
    const prose = { ...model, rules: model.rules.map((r) => (r.id === 'ERR-TOKEN-GRANT-TYPE-INVALID' ? { ...r, summary: 'reworded' } : r)) };
    const d = await specDiff(DEFAULT_SPEC_DIR, DEFAULT_SPEC_DIR, { old: model, new: prose });
    expect(d.rules).toEqual([expect.objectContaining({ change: 'changed', keys: ['summary'], breaking: false })]);
    expect(impactOf(d, { old: model, new: prose }, checks).checks).toEqual([]);
    const dir = await edited('fact', 'rules/auth.yaml', 'scope: "partner:full"', 'scope: "partner:all"');
    const { json } = await cli([DEFAULT_SPEC_DIR, dir, '--static']);
    expect(json.diff.files).toEqual([expect.objectContaining({ file: 'rules/auth.yaml', classified: false })]);
    expect(json.impact.all).toBe(true);
    expect(json.impact.checks).toHaveLength(checks.length);
  }, 120_000);
});

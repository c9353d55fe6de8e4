// run --report ctrf: the CTRF JSON of a real run (a failing check from a fault in the reference, a
// skipped one for a missing control API, a passing one) validates against the vendored published schema
// (spec/schemas/vendor/ctrf.schema.json), and the schema refuses what CTRF does not define.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeErrors, validatorFor } from '../baseline/schemas.ts';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { startReference } from '../reference/index.ts';

const CHECKS = ['auth.s2s.token-response', 'errors.token.client-id-missing', 'aliases.3ds.owner'];

describe('run --report ctrf', () => {
  it('writes ctrf.json that validates against the published CTRF schema, one test per check', async () => {
    const ref = await startReference({ control: false, faults: new Set(['token.missing-token-type']) });
    const cwd = await mkdtemp(join(tmpdir(), 'bc-ctrf-'));
    let code: number;
    const c = captureIo({ env: {}, cwd });
    try {
      await writeFile(join(cwd, 'p.json'), JSON.stringify(ref.profile));
      code = await main(['run', '--profile', 'p.json', '--seed', '3', '--report-dir', 'r', '--report', 'ctrf', ...CHECKS.flatMap((id) => ['--check', id])], c.io);
    } finally {
      await ref.close();
    }
    expect(code, c.out() + c.err()).toBe(1);
    expect(c.out()).toContain(join(cwd, 'r', 'ctrf.json'));
    const doc = JSON.parse(await readFile(join(cwd, 'r', 'ctrf.json'), 'utf8'));
    const validate = validatorFor('vendor/ctrf.schema.json');
    expect(validate(doc), describeErrors(validate.errors)).toBe(true);
    expect(doc).toMatchObject({ reportFormat: 'CTRF', specVersion: '1.0.0', results: { tool: { name: 'baas-conform' }, summary: { tests: 3, passed: 1, failed: 1, skipped: 1, pending: 0, other: 0 } } });
    const byId = Object.fromEntries(doc.results.tests.map((t: { testId: string }) => [t.testId, t]));
    expect(byId['auth.s2s.token-response']).toMatchObject({ status: 'failed', rawStatus: 'fail', tags: ['AUTH-S2S-TOKEN-RESPONSE'], parameters: { seed: expect.any(Number) } });
    expect(byId['auth.s2s.token-response'].trace).toContain('curl');
    expect(byId['aliases.3ds.owner']).toMatchObject({ status: 'skipped', message: expect.any(String) });
    expect(byId['errors.token.client-id-missing'].status).toBe('passed');
    expect(JSON.stringify(doc)).not.toContain(ref.profile.clients[0].client_secret);

    // The schema can refuse: a status CTRF does not define, a missing summary field.
    expect(validate({ ...doc, results: { ...doc.results, tests: [{ ...doc.results.tests[0], status: 'blocked' }] } })).toBe(false);
    const { start: _start, ...noStart } = doc.results.summary;
    expect(validate({ ...doc, results: { ...doc.results, summary: noStart } })).toBe(false);
    await rm(cwd, { recursive: true, force: true });
  }, 120_000);

  it('an unknown --report format is a usage error', async () => {
    const c = captureIo({ env: {}, cwd: tmpdir() });
    expect(await main(['run', '--report', 'allure-xyz'], c.io)).toBe(2);
    expect(c.err()).toMatch(/allure-xyz/);
  });
});

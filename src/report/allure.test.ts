// run --report allure: a real run writes allure-results/<uuid>-result.json, one per check, each valid
// against spec/schemas/allure-result.schema.json (written from Allure's documented result format). A
// failing check (a fault in the reference), a blocked one (the card-tokenization server of the profile
// answers 404), a skipped one (no control API) and a passing one map to failed, broken, skipped and
// passed, with rules as labels, the section as a link, the seed as a parameter, the failing curl as a
// step, and no secret anywhere.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeErrors, validatorFor } from '../baseline/schemas.ts';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { startReference } from '../reference/index.ts';

const FAIL = 'auth.s2s.token-response';
const PASS = 'errors.token.client-id-missing';
const SKIP = 'aliases.3ds.owner';
const BLOCKED = 'schema.create-recipient-v2';

async function notFoundServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

interface AllureResult {
  uuid: string;
  historyId: string;
  name: string;
  fullName: string;
  status: string;
  statusDetails: { message?: string; trace?: string };
  labels: { name: string; value: string }[];
  links: { type?: string; name: string; url: string }[];
  parameters: { name: string; value: string }[];
  steps: { name: string; status: string }[];
}

async function runAllure(cwd: string, seed: string, extra: string[] = []): Promise<{ code: number; out: string; docs: AllureResult[]; files: string[]; secret: string }> {
  const ref = await startReference({ control: false, faults: new Set(['token.missing-token-type']) });
  const pci = await notFoundServer();
  const c = captureIo({ env: {}, cwd });
  try {
    await writeFile(join(cwd, 'p.json'), JSON.stringify({ ...ref.profile, pci_url: pci.url }));
    const code = await main(['run', '--profile', 'p.json', '--seed', seed, '--report-dir', 'r', '--report', 'allure', ...[FAIL, PASS, SKIP, BLOCKED].flatMap((id) => ['--check', id]), ...extra], c.io);
    const dir = join(cwd, 'r', 'allure-results');
    const files = (await readdir(dir)).sort();
    const docs = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as AllureResult));
    return { code, out: c.out() + c.err(), docs, files, secret: ref.profile.clients[0].client_secret };
  } finally {
    await pci.close();
    await ref.close();
  }
}

describe('run --report allure', () => {
  it('writes one well-formed result file per check: failed, broken (blocked), skipped, passed; no secret', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'bc-allure-'));
    const first = await runAllure(cwd, '3');
    expect(first.code, first.out).toBe(1);
    expect(first.out).toContain(join(cwd, 'r', 'allure-results'));
    expect(first.files).toHaveLength(4);
    const validate = validatorFor('allure-result.schema.json');
    for (const [i, doc] of first.docs.entries()) {
      expect(first.files[i]).toBe(`${doc.uuid}-result.json`);
      expect(validate(doc), describeErrors(validate.errors)).toBe(true);
    }
    const byId = Object.fromEntries(first.docs.map((d) => [d.fullName.split('.').slice(2).join('.'), d]));
    const labels = (d: AllureResult, name: string) => d.labels.filter((l) => l.name === name).map((l) => l.value);

    const failed = byId[FAIL];
    expect(failed).toMatchObject({ status: 'failed', parameters: [{ name: 'seed', value: expect.stringMatching(/^\d+$/) }] });
    expect(labels(failed, 'rule')).toEqual(['AUTH-S2S-TOKEN-RESPONSE']);
    expect(labels(failed, 'suite')).toEqual(['auth']);
    expect(labels(failed, 'tag')).toContain('AUTH-S2S-TOKEN-RESPONSE');
    expect(failed.links[0]).toMatchObject({ type: 'link', name: expect.stringMatching(/^section 5/), url: expect.stringMatching(/#section-5$/) });
    expect(failed.statusDetails.message).toBeTruthy();
    expect(failed.statusDetails.trace).toContain('curl');
    expect(failed.steps.some((s) => s.status === 'failed' && s.name.includes('curl '))).toBe(true);

    const blocked = byId[BLOCKED];
    expect(blocked.status).toBe('broken');
    expect(blocked.statusDetails.message).toMatch(/^blocked by tokenizeCard/);
    expect(blocked.steps[0]).toMatchObject({ status: 'broken', name: expect.stringContaining(`curl`) });
    expect(byId[SKIP]).toMatchObject({ status: 'skipped', statusDetails: { message: expect.any(String) } });
    expect(byId[PASS]).toMatchObject({ status: 'passed', steps: [] });

    const all = JSON.stringify(first.docs);
    expect(all).not.toContain(first.secret);
    expect(all).toContain('***');

    // A second night: the old files are replaced, not mixed in, and historyId stays per check id.
    const second = await runAllure(cwd, '4');
    expect(second.files).toHaveLength(4);
    expect(second.files.some((f) => first.files.includes(f))).toBe(false);
    const history = (docs: AllureResult[]) => Object.fromEntries(docs.map((d) => [d.fullName, d.historyId]));
    expect(history(second.docs)).toEqual(history(first.docs));
    expect(new Set(second.docs.map((d) => d.historyId)).size).toBe(4);

    // A failure waived by a muted expected-failures entry is marked muted, by a known one known.
    await writeFile(join(cwd, 'ef.yaml'), `- check: ${FAIL}\n  reason: r\n  kind: muted\n- check: ${BLOCKED}\n  reason: r\n`);
    const waived = await runAllure(cwd, '3', ['--expected-failures', 'ef.yaml']);
    expect(waived.code, waived.out).toBe(0);
    const flags = Object.fromEntries(waived.docs.map((d) => [d.fullName.split('.').slice(2).join('.'), d.statusDetails]));
    expect(flags[FAIL]).toMatchObject({ muted: true });
    expect(flags[BLOCKED]).toMatchObject({ known: true });
    expect(flags[FAIL]).not.toHaveProperty('known');
    for (const doc of waived.docs) expect(validate(doc), describeErrors(validate.errors)).toBe(true);

    // The schema can refuse: a status Allure does not define, a label without a value.
    expect(validate({ ...failed, status: 'blocked' })).toBe(false);
    expect(validate({ ...failed, labels: [{ name: 'rule' }] })).toBe(false);
    await rm(cwd, { recursive: true, force: true });
  }, 180_000);
});

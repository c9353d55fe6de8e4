// Root causes, not echoes, on the real suites: the embedded reference with its card-tokenization
// environment replaced by a loopback server that answers 404 to everything (an implementation that
// lacks the endpoint). The checks that only need tokenization as a setup step are blocked by the
// tokenization rule; the checks about tokenization fail; the run counts one root cause. Against the
// unmodified reference the same checks pass, so "blocked" is not unconditional.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { SCHEMA_FILES, validatorFor } from '../baseline/index.ts';
import { startReference } from '../reference/index.ts';
import { JsonReporter, JunitReporter } from '../report/index.ts';

const DEPENDENT = ['schema.estimate-card-transfer', 'schema.execute-card-transfer', 'schema.create-recipient-v2', 'aliases.recipient.address'];
const ABOUT_TOKENIZATION = ['schema.tokenize-card', 'transfers.push-to-card.end-to-end'];

let reference: Awaited<ReturnType<typeof startReference>>;
let missing: Server;
let missingUrl = '';
beforeAll(async () => {
  reference = await startReference();
  missing = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error_reason":"ErrorNotFound","error_description":"no such route"}');
    });
  });
  await new Promise<void>((r) => missing.listen(0, '127.0.0.1', r));
  missingUrl = `http://127.0.0.1:${(missing.address() as AddressInfo).port}`;
});
afterAll(async () => {
  missing.closeAllConnections();
  await new Promise((r) => missing.close(r));
  await reference.close();
});

describe('a target without the card-tokenization endpoint', () => {
  it('blocks the dependent checks by the tokenization rule and counts one root cause', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bc-rootcause-'));
    const json = path.join(dir, 'results.json');
    const junit = path.join(dir, 'junit.xml');
    const out = await runConformance({
      profile: { ...reference.profile, pci_url: missingUrl },
      env: {},
      checks: [...DEPENDENT, ...ABOUT_TOKENIZATION],
      seed: 5,
      reporters: [new JsonReporter(json), new JunitReporter(junit)],
    });
    const by = Object.fromEntries(out.results.map((r) => [r.checkId, r]));
    for (const id of DEPENDENT) {
      expect(by[id].verdict, `${id}: ${by[id].failure?.message ?? ''}`).toBe('blocked');
      expect(by[id].blocked).toMatchObject({ operation: 'tokenizeCard', rules: ['FLOW-PUSH-TO-CARD'] });
      expect(by[id].blocked?.exchange?.response?.status).toBe(404);
    }
    for (const id of ABOUT_TOKENIZATION) expect(by[id]).toMatchObject({ verdict: 'fail', failure: { operation: 'tokenizeCard' } });
    expect(out.rootCauses).toHaveLength(1);
    expect(out.rootCauses[0]).toMatchObject({ operation: 'tokenizeCard' });
    expect([...out.rootCauses[0].checks].sort()).toEqual([...ABOUT_TOKENIZATION].sort());
    expect([...out.rootCauses[0].blocked].sort()).toEqual([...DEPENDENT].sort());
    expect(out.summary).toMatchObject({ rootCauses: 1, failed: 2, blocked: 4 });
    expect(out.rules.find((r) => r.id === 'FLOW-PUSH-TO-CARD')?.verdict).toBe('fail');
    expect(out.exitCode).toBe(1);
    // The real results.json of this run validates against the published schema; JUnit names the blocking operation.
    const doc = JSON.parse(await readFile(json, 'utf8'));
    const validate = validatorFor(SCHEMA_FILES.results);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const xml = await readFile(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(6);
    expect(xml.match(/type="Blocked"/g)).toHaveLength(4);
    expect(xml).toContain('<failure message="blocked by tokenizeCard: ');
  });

  it('an unreachable tokenization environment blocks them too (a transport failure in a setup step)', async () => {
    const out = await runConformance({ profile: { ...reference.profile, pci_url: 'http://127.0.0.1:1' }, env: {}, checks: DEPENDENT, seed: 5 });
    for (const r of out.results) {
      expect(r.verdict, r.checkId).toBe('blocked');
      expect(r.blocked?.operation).toBe('tokenizeCard');
      expect(r.blocked?.message).toContain('CONNECTION_REFUSED');
    }
    expect(out.rootCauses).toEqual([expect.objectContaining({ kind: 'blocking', id: 'tokenizeCard', rules: ['FLOW-PUSH-TO-CARD'] })]);
  });

  it('the same checks pass against the unmodified reference', async () => {
    const out = await runConformance({ profile: reference.profile, env: {}, checks: [...DEPENDENT, ...ABOUT_TOKENIZATION], seed: 5 });
    expect(out.results.map((r) => [r.checkId, r.verdict]).filter(([, v]) => v !== 'pass')).toEqual([]);
    expect(out.rootCauses).toEqual([]);
  });
});

// profile.operation_auth on the real suites, against the reference whose card-tokenization environment
// requires credentials the spec does not show (ReferenceOptions.pciAuth). Without the key, the target
// answers a section 7 credentials row: every check needing tokenization is blocked naming the key and no
// rule (never a failure of FLOW-PUSH-TO-CARD or the schema check), company isolation still runs its other
// steps, and the recipient webhook alias names the step rather than "none arrived". With the key, they
// pass; in headers mode the given header arrives and its value is masked in results and the HAR. A faulty
// tokenization (no card_token) still fails FLOW-PUSH-TO-CARD when authorized.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import { variantsById } from '../../src/mutants/index.ts';
import { startReference } from '../../src/reference/index.ts';
import { HarReporter, JsonReporter } from '../../src/report/index.ts';
import type { TargetProfile } from '../../src/profile/index.ts';

const NEED_TOKENIZATION = ['schema.tokenize-card', 'transfers.push-to-card.end-to-end', 'schema.create-recipient-v2', 'aliases.recipient.address', 'aliases.webhook.recipient-address', 'users.activity.feed'];
const ISOLATION = 'identity.company.isolation';
const KEY = 'profile.operation_auth.tokenizeCard';

const without = (p: TargetProfile): TargetProfile => {
  const { operation_auth: _omitted, ...rest } = p;
  return rest;
};

describe('card tokenization protected by the S2S Bearer token (pciAuth s2s)', () => {
  let reference: Awaited<ReturnType<typeof startReference>>;
  beforeAll(async () => {
    reference = await startReference({ pciAuth: 's2s' });
  });
  afterAll(() => reference.close());

  it('publishes operation_auth for the operations whose authentication the spec does not show', () => {
    expect(reference.profile.operation_auth).toEqual({ tokenizeCard: { mode: 's2s' } });
  });

  it('without operation_auth: blocked naming profile.operation_auth.tokenizeCard and no rule, never failed', async () => {
    const out = await runConformance({ profile: without(reference.profile), env: {}, checks: [...NEED_TOKENIZATION, ISOLATION], seed: 7 });
    const by = Object.fromEntries(out.results.map((r) => [r.checkId, r]));
    for (const id of NEED_TOKENIZATION) {
      expect(by[id].verdict, `${id}: ${by[id].failure?.message ?? by[id].reason ?? ''}`).toBe('blocked');
      expect(by[id].blocked).toMatchObject({ operation: 'tokenizeCard', rules: [] });
      expect(by[id].blocked?.message).toContain(KEY);
      // The section 7 row the target answered is named, as it was received.
      expect(by[id].blocked?.message).toMatch(/HTTP 400 ErrorMissingField/);
    }
    // Isolation leaves out only the card steps.
    expect(by[ISOLATION].verdict, by[ISOLATION].failure?.message).toBe('pass');
    expect(by[ISOLATION].unjudged?.[0]?.missing).toContain(KEY);
    for (const rule of ['FLOW-PUSH-TO-CARD', 'ENDPOINT-RESPONSE-SCHEMA', 'GENERAL-TRANSPORT-JSON']) {
      expect(out.rules.find((r) => r.id === rule)?.verdict, rule).not.toBe('fail');
    }
    // The rule verdict's reason names the key too, not only the operation.
    const flow = out.rules.find((r) => r.id === 'FLOW-PUSH-TO-CARD');
    expect(flow).toMatchObject({ verdict: 'blocked', reason: expect.stringContaining(KEY) });
    expect(out.summary.failed).toBe(0);
    expect(out.rootCauses).toEqual([expect.objectContaining({ kind: 'blocking', operation: 'tokenizeCard', rules: [] })]);
  });

  it('with operation_auth (the published profile) the same checks pass', async () => {
    const out = await runConformance({ profile: reference.profile, env: {}, checks: [...NEED_TOKENIZATION, ISOLATION], seed: 7 });
    expect(out.results.filter((r) => r.verdict !== 'pass').map((r) => [r.checkId, r.verdict, r.failure?.message ?? r.reason])).toEqual([]);
  });

  it('a profile naming an operation whose authentication the spec shows is refused at load (exit 2)', async () => {
    const bad = { ...reference.profile, operation_auth: { getConfig: { mode: 'none' as const } } };
    await expect(runConformance({ profile: bad, env: {}, checks: ['schema.tokenize-card'] })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/operation_auth\.getConfig: the spec shows how getConfig authenticates.*tokenizeCard/) });
    const mode = { ...reference.profile, operation_auth: { tokenizeCard: { mode: 'basic' } } } as unknown as TargetProfile;
    await expect(runConformance({ profile: mode, env: {}, checks: ['schema.tokenize-card'] })).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('operation_auth.tokenizeCard.mode') });
  });
});

describe('card tokenization protected by a user token (pciAuth user)', () => {
  it('mode user: the check sends a user token and X-Chain-Id, and the flow passes', async () => {
    const reference = await startReference({ pciAuth: 'user' });
    try {
      expect(reference.profile.operation_auth).toEqual({ tokenizeCard: { mode: 'user' } });
      const out = await runConformance({ profile: reference.profile, env: {}, checks: ['schema.tokenize-card', 'transfers.push-to-card.end-to-end'], seed: 7 });
      expect(out.results.filter((r) => r.verdict !== 'pass').map((r) => [r.checkId, r.failure?.message ?? r.reason])).toEqual([]);
      const refusedS2s = await runConformance({ profile: { ...reference.profile, operation_auth: { tokenizeCard: { mode: 's2s' } } }, env: {}, checks: ['schema.tokenize-card'], seed: 7 });
      expect(refusedS2s.results[0]).toMatchObject({ verdict: 'blocked', blocked: { operation: 'tokenizeCard', rules: [] } });
    } finally {
      await reference.close();
    }
  });
});

describe('a faulty tokenization, authorized', () => {
  it('answering no card_token still fails FLOW-PUSH-TO-CARD (transfers.tokenize.card-token-renamed)', async () => {
    const [variant] = variantsById(['transfers.tokenize.card-token-renamed']);
    const reference = await startReference({ ...variant.options, pciAuth: 's2s' });
    try {
      const out = await runConformance({ profile: reference.profile, env: {}, checks: ['transfers.push-to-card.end-to-end'], seed: 7 });
      expect(out.results[0]).toMatchObject({ verdict: 'fail', failure: { operation: 'tokenizeCard', rules: ['FLOW-PUSH-TO-CARD'] } });
    } finally {
      await reference.close();
    }
  });
});

describe('headers mode: a vendor key from the environment', () => {
  let reference: Awaited<ReturnType<typeof startReference>>;
  let front: Server;
  const seen: (string | undefined)[] = [];
  let frontUrl = '';
  beforeAll(async () => {
    reference = await startReference({ pciAuth: 'headers' });
    // A loopback front of the tokenization environment that records the key header it is sent.
    const pci = new URL(reference.profile.pci_url!);
    front = createServer((req, res) => {
      seen.push(req.headers['x-api-key'] as string | undefined);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const up = await fetch(new URL(req.url!, pci), { method: req.method, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
        res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await up.arrayBuffer()));
      });
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    front.closeAllConnections();
    await new Promise((r) => front.close(r));
    await reference.close();
  });

  it('sends the header read through {{env.NAME}} and masks its value in results.json and the HAR', async () => {
    const key = reference.profile.operation_auth!.tokenizeCard.headers!['X-Api-Key'];
    const dir = await mkdtemp(path.join(tmpdir(), 'bc-opauth-'));
    const json = path.join(dir, 'results.json');
    const har = path.join(dir, 'run.har');
    const profile = { ...reference.profile, pci_url: frontUrl, operation_auth: { tokenizeCard: { mode: 'headers' as const, headers: { 'X-Api-Key': '{{env.PCI_TEST_KEY}}' } } } };
    const out = await runConformance({ profile, env: { PCI_TEST_KEY: key }, checks: ['schema.tokenize-card', 'transfers.push-to-card.end-to-end'], seed: 7, reporters: [new JsonReporter(json), new HarReporter(har)] });
    expect(out.results.map((r) => [r.checkId, r.verdict, r.failure?.message]).sort()).toEqual([['schema.tokenize-card', 'pass', undefined], ['transfers.push-to-card.end-to-end', 'pass', undefined]]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((v) => v === key)).toBe(true);
    const [resultsText, harText] = [await readFile(json, 'utf8'), await readFile(har, 'utf8')];
    expect(resultsText).not.toContain(key);
    expect(harText).not.toContain(key);
    // The header is in the HAR, its value masked.
    expect(harText).toMatch(/"name":\s*"x-api-key",\s*"value":\s*"\*\*\*"/i);
  });

  it('an unset variable is refused at load, naming it (exit 2)', async () => {
    const profile = { ...reference.profile, operation_auth: { tokenizeCard: { mode: 'headers' as const, headers: { 'X-Api-Key': '{{env.PCI_TEST_KEY}}' } } } };
    await expect(runConformance({ profile, env: {}, checks: ['schema.tokenize-card'] })).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('PCI_TEST_KEY') });
  });

  it('a wrong key is refused and blocks, naming the key to check', async () => {
    const profile = { ...reference.profile, operation_auth: { tokenizeCard: { mode: 'headers' as const, headers: { 'X-Api-Key': 'pk_wrong-value' } } } };
    const out = await runConformance({ profile, env: {}, checks: ['schema.tokenize-card'], seed: 7 });
    expect(out.results[0]).toMatchObject({ verdict: 'blocked', blocked: { operation: 'tokenizeCard', rules: [] } });
    expect(out.results[0].blocked?.message).toContain(`check ${KEY}`);
  });
});

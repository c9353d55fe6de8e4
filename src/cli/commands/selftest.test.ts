import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../index.ts';
import { captureIo } from '../capture.ts';

const capture = () => captureIo();
// The runs below go on this thread (--workers 0): two worker threads load the checks and the model
// again (3 s of CPU per selftest here, more than the runs), and every run gets the same settings on
// either path (src/mutants/selftest.ts). The worker threads are src/mutants/selftest.test.ts's (the
// whole bank) and test/cli/selftest-cancel.test.ts's (the command stopping them).
const IN_THREAD = ['--workers', '0'];

describe('baas-conform selftest', () => {
  it('lists the variants with kind and broken rule', async () => {
    const c = capture();
    expect(await main(['selftest', '--list'], c.io)).toBe(0);
    expect(c.out()).toMatch(/^token\.client-id-missing\.wrong-message\s+faulty\s+ERR-TOKEN-CLIENT-ID-MISSING/m);
    expect(c.out()).toMatch(/^benign\.chunked\s+benign\s+-/m);
  });

  it('lists the client bank with --area clients (no server variant)', async () => {
    const c = capture();
    expect(await main(['selftest', '--area', 'clients', '--list'], c.io)).toBe(0);
    expect(c.out()).toMatch(/^client:none$/m);
    expect(c.out()).toMatch(/^client:no-backoff$/m);
    expect(c.out()).toMatch(/^client:lib:undici-retry-agent$/m);
    expect(c.out()).not.toMatch(/faulty/);
  });

  it('runs the chosen client bank entries alone, and refuses an unknown one (exit 2)', async () => {
    const c = capture();
    expect(await main(['selftest', '--variant', 'client:chain-number'], c.io)).toBe(0);
    expect(c.out()).toMatch(/^chain-number\s+faulty\s+CLIENT-CHAIN-STRING\s+CLIENT-CHAIN-STRING \(1, 1\)$/m);
    expect(c.out()).not.toMatch(/baseline/);
    const bad = capture();
    expect(await main(['selftest', '--variant', 'client:no-such-mode'], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/unknown client bank entry "client:no-such-mode"/);
  }, 60_000);

  it('exits 2 on an unknown variant', async () => {
    const c = capture();
    expect(await main(['selftest', '--variant', 'no.such.variant'], c.io)).toBe(2);
    expect(c.err()).toMatch(/unknown mutant variant "no\.such\.variant"/);
  });

  it('runs the baseline and the chosen variants, prints the matrix and writes --json', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'baas-selftest-'));
    try {
      const c = capture();
      const json = path.join(dir, 'selftest.json');
      const code = await main(['selftest', '--variant', 'token.grant-type.not-checked', '--variant', 'benign.pretty-json', '--concurrency', '3', ...IN_THREAD, '--json-out', json], c.io);
      const out = c.out();
      expect(out).toMatch(/^token\.grant-type\.not-checked\s+faulty\s+ERR-TOKEN-GRANT-TYPE-INVALID\s+\S*errors\.token\.grant-type-invalid/m);
      expect(out).toMatch(/^benign\.pretty-json\s+benign\s+-\s+-$/m);
      expect(out).toMatch(/Mutation score: 1\/1 faulty variants caught/);
      const result = JSON.parse(await readFile(json, 'utf8'));
      expect(result.variants.map((v: any) => v.id)).toEqual(['token.grant-type.not-checked', 'benign.pretty-json']);
      expect(result.baseline.id).toBe('baseline');
      expect(result.workers).toBe(0);
      // The reference and the benign variant must be clean: zero false positives, exit 0.
      expect(result.falsePositives).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('runs the bank under the minimal profile: faults only control/secrets/a receiver can show are hidden by the named missing service (skipped, or could not judge), the rest caught', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'baas-selftest-min-'));
    try {
      const c = capture();
      const json = path.join(dir, 'selftest.json');
      const code = await main(['selftest', '--profile', 'minimal', '--variant', 'token.grant-type.not-checked', '--variant', 'idp.exchange.refused', '--variant', 'feeds.webhooks.wallets-renamed', '--variant', 's2s.validity.refused-after-24h', '--variant', 'sepa.no-primary-wallet.500-mismatch', ...IN_THREAD, '--json-out', json], c.io);
      const result = JSON.parse(await readFile(json, 'utf8'));
      expect(result.profile).toBe('minimal');
      // No control API, no IdP: the IdP checks skip on the baseline already.
      expect(result.baseline.skipped).toBeGreaterThan(10);
      expect(result.variants.find((v: any) => v.id === 'token.grant-type.not-checked').ok).toBe(true);
      // The wallets webhook fault: the alias check runs and passes on what it can judge, but without a
      // receiver it could not judge the webhook payloads, so the fault is hidden by that missing service,
      // not silently passed.
      // The 24 h refusal and the SEPA refusal sit where only a check needing control operations looks
      // (the variants' reach), though another check of their rule runs and passes: hidden, not silent.
      expect(result.hiddenBySkips).toEqual(['idp.exchange.refused', 'feeds.webhooks.wallets-renamed', 's2s.validity.refused-after-24h', 'sepa.no-primary-wallet.500-mismatch']);
      expect(result.hidden).toEqual([
        { variant: 'idp.exchange.refused', missing: [expect.stringMatching(/identity-provider exchange: profile\.idp\.enabled is not true/)] },
        { variant: 'feeds.webhooks.wallets-renamed', missing: [expect.stringMatching(/^a webhook receiver/)] },
        { variant: 's2s.validity.refused-after-24h', missing: [expect.stringMatching(/advanceClock/)] },
        { variant: 'sepa.no-primary-wallet.500-mismatch', missing: [expect.stringMatching(/setPrimaryWallet/)] },
      ]);
      expect(result.silentlyPassed).toEqual([]);
      // Total accounting: every faulty variant is caught or hidden by a named missing service.
      const faulty = result.variants.filter((v: any) => v.kind === 'faulty');
      for (const v of faulty) expect(v.ok || result.hiddenBySkips.includes(v.id), v.id).toBe(true);
      const wallets = result.variants.find((v: any) => v.id === 'feeds.webhooks.wallets-renamed');
      expect(wallets.unjudgedChecks).toContainEqual({ checkId: 'aliases.unchanged.wallet-names', missing: [expect.stringMatching(/^a webhook receiver/)] });
      expect(result.falsePositives).toEqual([]);
      expect(c.out()).toMatch(/Hidden by a missing service .*: 4\n {2}idp\.exchange\.refused: needs the identity-provider exchange/);
      expect(c.out()).toMatch(/\n {2}feeds\.webhooks\.wallets-renamed: a webhook receiver/);
      expect(code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

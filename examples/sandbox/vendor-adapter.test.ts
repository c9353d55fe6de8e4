// The JS adapter example works as documented: against the loopback vendor (its own simulation API in
// front of the reference, control API hidden), a full run through vendor-adapter.mjs judges as much as
// a run with our control API, fails nothing, and goes through every vendor route the operations need,
// two-call operations included. A vendor operation broken on purpose is caught: the checks that need
// it do not pass, each names the operation, and the run exits non-zero.

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import type { CheckResult } from '../../src/events/index.ts';
import { loadModel } from '../../src/model/index.ts';
import { controlOperations, type ControlModule } from '../../src/control/index.ts';
import { loadChecks } from '../../suites/index.ts';
import { multiRuleDrivers } from '../../suites/models/index.ts';
import { startVendor, type Vendor, type VendorRoute } from './vendor.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const open: Vendor[] = [];
afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
  delete process.env.VENDOR_URL;
  delete process.env.VENDOR_API_KEY;
});

/** The adapter reads the vendor's address and key from the environment, as a user's would. */
async function vendor(broken?: VendorRoute[]): Promise<Vendor> {
  const v = await startVendor({ broken });
  open.push(v);
  process.env.VENDOR_URL = v.url;
  process.env.VENDOR_API_KEY = v.apiKey;
  return v;
}

const ids = (rs: CheckResult[], verdict: string) => rs.filter((r) => r.verdict === verdict).map((r) => r.checkId).sort();

describe('examples/sandbox/vendor-adapter.mjs', () => {
  let mod: ControlModule;
  beforeAll(async () => {
    // A user's plain JS module, typed by the contract it is written against.
    mod = (await import(pathToFileURL(join(HERE, 'vendor-adapter.mjs')).href)) as ControlModule;
  });

  it('maps every control operation of spec/control.yaml', async () => {
    expect(Object.keys(mod.operations).sort()).toEqual([...controlOperations(await loadModel()).keys()].sort());
  });

  it('a full run through it fails nothing and skips no more than a run with our control API', async () => {
    const v = await vendor();
    const withControl = await runConformance({ profile: v.reference.profile, env: {}, numRuns: 2 });
    const out = await runConformance({ profile: v.profile, env: {}, numRuns: 2 });
    expect(ids(out.results, 'fail')).toEqual([]);
    expect(ids(out.results, 'blocked')).toEqual([]);
    expect(out.exitCode).toBe(0);
    // No check skipped for a control operation: every need was met through the vendor's own API.
    expect(out.results.filter((r) => r.verdict === 'skip' && /control operation/.test(r.reason ?? '')).map((r) => r.checkId)).toEqual([]);
    expect(ids(out.results, 'skip').filter((id) => !ids(withControl.results, 'skip').includes(id))).toEqual([]);
    expect(out.summary.coverage!.exercisedShareOfTestable).toBeGreaterThanOrEqual(0.95);
    expect(out.summary.coverage!.rules.exercised).toBe(withControl.summary.coverage!.rules.exercised);
    // Every operation's route was used; the two-call operations went through both of their calls.
    // (triggerWebhook's route is used only where an event cannot be provoked: the next test.)
    for (const route of ['cards', 'challenges', 'sepa-account', 'sepa-open', 'clock', 'sepa-status', 'wallet', 'sign', 'withdrawals', 'settle', 'settings'] as const) {
      expect({ route, used: (v.calls.get(route) ?? 0) > 0 }).toEqual({ route, used: true });
    }
  }, 400_000);

  it('an operation left out (create3dsChallenge) makes the 3DS webhook check ask the vendor for a test event (triggerWebhook)', async () => {
    const v = await vendor();
    const dir = await mkdtemp(join(tmpdir(), 'bc-vendor-'));
    const file = join(dir, 'no-3ds.mjs');
    await writeFile(file, `import { operations as all } from ${JSON.stringify(pathToFileURL(join(HERE, 'vendor-adapter.mjs')).href)};\nconst { create3dsChallenge: _left, ...operations } = all;\nexport { operations };\n`);
    const out = await runConformance({ profile: { ...v.profile, control_adapter: file }, env: {}, numRuns: 1, checks: ['aliases.webhook.3ds-owner', 'states.3ds.model'] });
    expect(out.results.find((r) => r.checkId === 'aliases.webhook.3ds-owner')).toMatchObject({ verdict: 'pass' });
    expect(out.results.find((r) => r.checkId === 'states.3ds.model')).toMatchObject({ verdict: 'skip', reason: expect.stringMatching(/create3dsChallenge/) });
    expect(v.calls.get('events')).toBeGreaterThan(0);
    expect(v.calls.get('challenges')).toBeUndefined();
  }, 200_000);

  it('the YAML adapter for the same vendor (steps for the two-call operations) fails nothing; what a file cannot express skips, saying why', async () => {
    const v = await vendor();
    const out = await runConformance({ profile: { ...v.profile, control_adapter: join(HERE, 'vendor-adapter.yaml') }, env: { VENDOR_URL: v.url, VENDOR_API_KEY: v.apiKey }, numRuns: 2 });
    expect(ids(out.results, 'fail')).toEqual([]);
    expect(ids(out.results, 'blocked')).toEqual([]);
    // setPrimaryWallet is left out (the method depends on an input): exactly the checks that need it skip.
    const controlSkips = out.results.filter((r) => r.verdict === 'skip' && /control operation/.test(r.reason ?? ''));
    const needing = (await loadChecks()).filter((c) => c.needs?.includes('control:setPrimaryWallet')).map((c) => c.id).sort();
    expect(controlSkips.map((r) => r.checkId).sort()).toEqual(needing);
    for (const r of controlSkips) expect(r.reason).toMatch(/setPrimaryWallet/);
    // advanceClock's `now` stays the vendor's ISO time (a file cannot convert it): the checks that read
    // the server's time skip, saying so. Nothing else skips.
    const timeSkips = out.results.filter((r) => r.verdict === 'skip' && !controlSkips.includes(r));
    expect(timeSkips.length).toBeGreaterThan(0);
    for (const r of timeSkips) expect(r.reason).toMatch(/advanceClock \(by 0 s\) answered no integer now/);
    for (const route of ['cards', 'challenges', 'sepa-account', 'sepa-open'] as const) expect({ route, used: (v.calls.get(route) ?? 0) > 0 }).toEqual({ route, used: true });
  }, 400_000);

  it('a vendor whose SEPA completion is broken: the checks that need completeSepaActivation do not pass, each names it, exit 1', async () => {
    const v = await vendor(['sepa-open']);
    // Without the model-based check: its command sequence is drawn at random and one run may never call the provider.
    const needing = (await loadChecks()).filter((c) => c.needs?.includes('control:completeSepaActivation') && !Object.hasOwn(multiRuleDrivers, c.id)).map((c) => c.id);
    expect(needing.length).toBeGreaterThan(0);
    const out = await runConformance({ profile: v.profile, env: {}, numRuns: 1, checks: needing });
    expect(out.results.map((r) => r.checkId).sort()).toEqual([...needing].sort());
    expect(ids(out.results, 'pass')).toEqual([]);
    for (const r of out.results) expect(JSON.stringify(r)).toMatch(/completeSepaActivation/);
    expect(out.exitCode).toBe(1);
    expect(v.calls.get('sepa-open')).toBeGreaterThan(0);
  }, 200_000);
});

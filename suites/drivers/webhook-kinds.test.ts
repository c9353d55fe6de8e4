// The debt-case, corporation and card limit webhooks (issue 33 item 10) and the section 9.2 naming over
// every payload, on a real reference over loopback: clean on the reference; each fails naming its rule
// when the reference delivers on a wrong path or adds an owner; without control triggerWebhook each
// skips, saying what the profile lacks.

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import { startReference, type ReferenceServer } from '../../src/reference/index.ts';

const CHECKS = ['webhooks.debt-cases.path', 'webhooks.corporations.path', 'webhooks.card-limit.no-owner', 'webhooks.payloads.field-naming'];

const open: ReferenceServer[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await r.close();
});

async function run(faults: string[] = [], trigger = true) {
  const ref = await startReference({ faults: new Set(faults) });
  open.push(ref);
  let profile: Record<string, unknown> = { ...ref.profile };
  if (!trigger) {
    // An adapter giving the receiver only: no way to ask for these webhooks.
    const dir = await mkdtemp(join(tmpdir(), 'bc-kinds-'));
    const adapter = join(dir, 'adapter.yaml');
    await writeFile(adapter, ['version: 1', `base_url: "${ref.profile.control_url}"`, 'operations:', '  setWebhookBaseUrl: { method: PUT, path: /webhooks, body: { base_url: "{{base_url}}" } }', ''].join('\n'));
    const { control_url: _c, ...rest } = ref.profile;
    profile = { ...rest, control_adapter: adapter };
  }
  const out = await runConformance({ profile: profile as never, env: {}, checks: CHECKS, seed: 1 });
  return Object.fromEntries(out.results.map((r) => [r.checkId, r]));
}

describe('debt-case, corporation and card limit webhooks; naming over every payload', () => {
  it('pass on the reference, having judged a triggered delivery of each', async () => {
    const r = await run();
    for (const id of CHECKS) expect(r[id]?.verdict, `${id}: ${r[id]?.reason ?? r[id]?.failure?.message ?? ''}`).toBe('pass');
  }, 60_000);

  it('fail naming their rule: a wrong debt-case or corporation path, an owner on the card limit webhook', async () => {
    const r = await run(['webhooks.debt-cases-wrong-path', 'webhooks.corporations-wrong-path', 'webhooks.card-limit-owner']);
    expect(r['webhooks.debt-cases.path']?.verdict).toBe('fail');
    expect(r['webhooks.debt-cases.path']?.failure?.rules).toContain('EVENT-DEBT-CASES-WEBHOOK-PATH');
    expect(r['webhooks.debt-cases.path']?.failure?.message).toMatch(/debt_cases instead/);
    expect(r['webhooks.corporations.path']?.verdict).toBe('fail');
    expect(r['webhooks.corporations.path']?.failure?.rules).toContain('EVENT-CORPORATIONS-WEBHOOK-PATH');
    expect(r['webhooks.card-limit.no-owner']?.verdict).toBe('fail');
    expect(r['webhooks.card-limit.no-owner']?.failure?.rules).toContain('EVENT-CARD-LIMIT-NO-OWNER');
    // The payloads themselves still follow the convention.
    expect(r['webhooks.payloads.field-naming']?.verdict).toBe('pass');
  }, 60_000);

  it('skip, naming the missing control, when the profile gives no triggerWebhook', async () => {
    const r = await run([], false);
    for (const id of ['webhooks.debt-cases.path', 'webhooks.corporations.path']) {
      expect(r[id]?.verdict, id).toBe('skip');
      expect(r[id]?.reason, id).toMatch(/triggerWebhook/);
    }
    expect(r['webhooks.card-limit.no-owner']?.verdict).toBe('skip');
    expect(r['webhooks.card-limit.no-owner']?.reason).toMatch(/triggerWebhook card_limit/);
  }, 60_000);
});

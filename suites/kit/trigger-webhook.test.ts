// Control triggerWebhook: on a target whose 3DS, withdrawal and recipient events cannot be
// provoked (no create3dsChallenge, no createWithdrawalRequest, no card-tokenization environment), the
// webhook alias checks ask the target to emit the webhook instead of skipping, and judge what arrives.
// The adapter is a file mapping only setWebhookBaseUrl and triggerWebhook onto the reference's control API.

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import { startReference, type ReferenceServer } from '../../src/reference/index.ts';

const CHECKS = ['aliases.webhook.3ds-owner', 'aliases.webhook.withdrawal-account-address', 'aliases.webhook.withdrawal-to-address', 'aliases.webhook.recipient-address'];

const open: ReferenceServer[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await r.close();
});

/** triggerWebhook mapped onto a control call that answers 204 and emits nothing: a target that acknowledges and never delivers. */
const SILENT_TRIGGER = '  triggerWebhook: { method: PUT, path: "/users/{{user_id}}/primary-wallet", body: { present: true } }';

async function runTriggerOnly(faults: string[] = [], trigger: boolean | 'silent' = true) {
  const ref = await startReference({ faults: new Set(faults) });
  open.push(ref);
  const dir = await mkdtemp(join(tmpdir(), 'bc-trigger-'));
  const adapter = join(dir, 'adapter.yaml');
  await writeFile(adapter, [
    'version: 1',
    `base_url: "${ref.profile.control_url}"`,
    'operations:',
    '  setWebhookBaseUrl: { method: PUT, path: /webhooks, body: { base_url: "{{base_url}}" } }',
    ...(trigger === 'silent' ? [SILENT_TRIGGER] : trigger ? ['  triggerWebhook: { method: POST, path: "/users/{{user_id}}/webhooks/{{kind}}" }'] : []),
    '',
  ].join('\n'));
  const { control_url: _c, pci_url: _p, ...rest } = ref.profile;
  const out = await runConformance({ profile: { ...rest, control_adapter: adapter }, env: {}, checks: CHECKS, seed: 1 });
  return Object.fromEntries(out.results.map((r) => [r.checkId, r]));
}

describe('control triggerWebhook', () => {
  it('without it the same checks skip, naming both ways in (the need is declared)', async () => {
    const r = await runTriggerOnly([], false);
    for (const id of CHECKS) {
      expect(r[id]?.verdict, id).toBe('skip');
      expect(r[id]?.reason, id).toMatch(/triggerWebhook/);
    }
  }, 60_000);

  it('runs the 3DS, withdrawal and recipient webhook checks on a target that cannot provoke their events', async () => {
    const r = await runTriggerOnly();
    for (const id of CHECKS) expect(r[id]?.verdict, `${id}: ${r[id]?.reason ?? ''}`).toBe('pass');
  }, 60_000);

  it('fails them when the triggered webhooks drop the deprecated names', async () => {
    const r = await runTriggerOnly(['webhooks.drop-aliases']);
    expect(r['aliases.webhook.3ds-owner']?.verdict).toBe('fail');
    expect(r['aliases.webhook.3ds-owner']?.failure?.rules).toContain('ALIAS-WEBHOOK-3DS-OWNER');
    expect(r['aliases.webhook.recipient-address']?.verdict).toBe('fail');
  }, 60_000);

  it('fails them, never skips, when triggerWebhook succeeds and no webhook arrives (spec/control.yaml: it emits the webhook)', async () => {
    const r = await runTriggerOnly([], 'silent');
    const rules: Record<string, string> = {
      'aliases.webhook.3ds-owner': 'ALIAS-WEBHOOK-3DS-OWNER',
      'aliases.webhook.withdrawal-account-address': 'ALIAS-WEBHOOK-WITHDRAWAL-ACCOUNT-ADDRESS',
      'aliases.webhook.withdrawal-to-address': 'ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS',
      'aliases.webhook.recipient-address': 'ALIAS-WEBHOOK-RECIPIENT-ADDRESS',
    };
    for (const [id, rule] of Object.entries(rules)) {
      expect(r[id]?.verdict, `${id}: ${r[id]?.reason ?? ''}`).toBe('fail');
      expect(r[id]?.failure?.rules, id).toContain(rule);
      expect(r[id]?.failure?.message, id).toMatch(/control triggerWebhook succeeded/);
    }
  }, 60_000);
});

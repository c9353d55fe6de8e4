// EVENT-CARD-TRANSFER-ACTIVITY in its default setting: no control completeActivity to settle the
// transfer and no profile.webhook_timeout_ms. Once the activity read shows the transfer completed, its
// activity webhook is owed (reading delivery-time): a target that never sends it fails, not warns.

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import { startReference } from '../../src/reference/index.ts';

const CHECK = 'transfers.push-to-card.end-to-end';

/** The reference settling on its own after 300 ms; the adapter maps only the webhook registration. */
async function run(faults: string[]) {
  const ref = await startReference({ faults: new Set(faults), settleMs: 300 });
  try {
    const dir = await mkdtemp(join(tmpdir(), 'bc-activity-'));
    const adapter = join(dir, 'adapter.yaml');
    await writeFile(adapter, ['version: 1', `base_url: "${ref.profile.control_url}"`, 'operations:', '  setWebhookBaseUrl: { method: PUT, path: /webhooks, body: { base_url: "{{base_url}}" } }', ''].join('\n'));
    const { control_url: _c, webhook_timeout_ms: _w, ...rest } = ref.profile;
    const out = await runConformance({ profile: { ...rest, control_adapter: adapter }, env: {}, checks: [CHECK], seed: 1 });
    return out.results.find((r) => r.checkId === CHECK)!;
  } finally {
    await ref.close();
  }
}

// The two runs are independent (each its own reference) and mostly wait for the webhook: at once.
describe.concurrent('card-transfer activity webhook without control settlement or a profile wait', () => {
  it('passes when the target sends it on its own schedule', async () => {
    const r = await run([]);
    expect(r.verdict, r.failure?.message ?? r.reason ?? '').toBe('pass');
    expect(r.warnings ?? []).toEqual([]);
  }, 60_000);

  it('fails a target that completes the transfer (its read says so) and never sends the webhook', async () => {
    const r = await run(['webhooks.no-activity']);
    expect(r.verdict).toBe('fail');
    expect(r.failure?.rules).toContain('EVENT-CARD-TRANSFER-ACTIVITY');
    expect(r.failure?.message).toMatch(/reads "Completed".*no activity webhook/);
  }, 90_000);
});

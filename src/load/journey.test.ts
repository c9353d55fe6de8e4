// The journey scenario: the partner flow per virtual user with think times, per-step percentiles, the
// activity webhook as the last step. Passes against the reference; fails when a step breaks (a proxy
// answering some estimates with a 500) and when the webhook does not come within its wait.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProfile } from '../profile/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { runLoad } from './index.ts';
import { JOURNEY_STEPS } from './journey-flow.ts';
import { lossyProxy } from './testing.ts';

const ERROR_500 = JSON.stringify({ error_reason: 'ErrorInternal', error_description: 'estimate failed', error_category: { category: 'CategoryInternalFailure', http_status_code: 500 } });

describe('load: journey', () => {
  let ref: ReferenceServer;
  beforeAll(async () => {
    ref = await startReference();
  });
  afterAll(() => ref.close());

  it('runs the flow per virtual user with think times, every step its own percentiles, the webhook included', async () => {
    const r = await runLoad({ scenario: 'journey', profile: resolveProfile(ref.profile, { env: {} }), connections: 2, durationSec: 1.5, thinkTimeMs: 10 });
    expect(r.verdict.reasons).toEqual([]);
    for (const step of JOURNEY_STEPS) expect(r.operations[step]?.counts['2xx'], step).toBeGreaterThan(0);
    // The S2S token is cached by the partner backend (section 5): far fewer token requests than journeys.
    expect(r.operations.createToken.counts.attempts).toBeLessThan(r.operations.executeCardTransfer.counts.attempts);
    expect(r.notes.join('\n')).toMatch(/journey: (\d+) journeys started, \1 completed end to end/);
    expect(r.conformance!.findings).toBe(0);
  });

  it('profile.request_templates "{{name}}" placeholders take the values of earlier steps, as in run (card_token, estimation_id)', async () => {
    const request_templates = { createRecipientV2: { card_token: '{{card_token}}' }, executeCardTransfer: { estimation_id: '{{estimation_id}}' } };
    const r = await runLoad({ scenario: 'journey', profile: resolveProfile({ ...ref.profile, request_templates }, { env: {} }), connections: 1, durationSec: 1 });
    expect(r.verdict.reasons).toEqual([]);
    expect(r.operations.createRecipientV2.counts['2xx']).toBeGreaterThan(0);
    expect(r.operations.executeCardTransfer.counts['2xx']).toBeGreaterThan(0);
  });

  it('fails when a step breaks under load (1 estimate in 3 a 500), naming the step', async () => {
    let n = 0;
    const proxy = await lossyProxy(ref.profile.base_url, 1_000_000, { fault: (m, p) => (m === 'POST' && p === '/api/v1/cards/transfer/estimate' && ++n % 3 === 0 ? { status: 500, body: ERROR_500 } : undefined) });
    try {
      const r = await runLoad({ scenario: 'journey', profile: resolveProfile({ ...ref.profile, base_url: proxy.base_url }, { env: {} }), arrivalRate: 10, durationSec: 1.5 });
      expect(r.operations.estimateCardTransfer.counts['5xx']).toBeGreaterThan(0);
      expect(r.verdict.pass).toBe(false);
      expect(r.verdict.reasons.join('\n')).toMatch(/error rate/);
      expect(r.notes.join('\n')).toMatch(/broken: \d+ at estimateCardTransfer/);
    } finally {
      await proxy.close();
    }
  });

  it('fails when the activity webhook does not come within its wait', async () => {
    const slow = await startReference({ settleMs: 60_000 });
    try {
      const r = await runLoad({ scenario: 'journey', profile: resolveProfile({ ...slow.profile, webhook_timeout_ms: 1000 }, { env: {} }), connections: 1, durationSec: 1, drainMs: 3000 });
      expect(r.operations.webhookActivities.counts.timeouts).toBeGreaterThan(0);
      expect(r.verdict.pass).toBe(false);
      expect(r.notes.join('\n')).toMatch(/broken: \d+ at webhookActivities/);
    } finally {
      await slow.close();
    }
  });
});

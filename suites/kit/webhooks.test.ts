import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/checks/types.ts';
import { WEBHOOK_WAIT_DEFAULTS } from '../../src/options/index.ts';
import { provokedWebhookWaitMs } from './webhooks.ts';

const ctxWith = (profile: Record<string, unknown>) => ({ profile }) as unknown as CheckContext;

describe('provokedWebhookWaitMs: the profile bound wins over the loopback fallback', () => {
  it('waits the profile webhook_timeout_ms on a loopback receiver (a late but in-bound delivery is not a skip)', () => {
    expect(provokedWebhookWaitMs(ctxWith({ webhook_timeout_ms: 10_000 }), 3000)).toBe(10_000);
  });
  it('falls back to the check default on loopback when the profile states no bound', () => {
    expect(provokedWebhookWaitMs(ctxWith({}), 3000)).toBe(3000);
  });
  it('uses the settled default for an external receiver without a bound', () => {
    expect(provokedWebhookWaitMs(ctxWith({ webhooks: { public_url: 'https://x.example' } }), 3000)).toBe(WEBHOOK_WAIT_DEFAULTS.settledMs);
  });
  it('clamps an absurd bound', () => {
    expect(provokedWebhookWaitMs(ctxWith({ webhook_timeout_ms: 10 }), 3000)).toBe(WEBHOOK_WAIT_DEFAULTS.minMs);
  });
});

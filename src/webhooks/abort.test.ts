// A check out of time must not keep waiting for a webhook: the wait ends when its signal aborts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWebhookReceiver, type TestWebhookReceiver } from './index.ts';

let rx: TestWebhookReceiver;
beforeAll(async () => {
  rx = await startWebhookReceiver();
});
afterAll(() => rx.close());

it('ends a 10-minute wait when the check signal aborts, and on an already-aborted signal', async () => {
  const controller = new AbortController();
  // No wall-time bound: a wait that ignored the signal would outlast the test timeout (the hang detector).
  const wait = rx.waitFor('/never', () => true, 600_000, controller.signal);
  setTimeout(() => controller.abort(), 100);
  expect(await wait).toBeUndefined();
  expect(await rx.waitFor('/never', () => true, 600_000, AbortSignal.abort())).toBeUndefined();
});

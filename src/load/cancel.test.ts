// Ctrl-C on `load`: the CLI aborts the signal runLoad was given; sending stops at the next poll, the
// requests in flight drain and the result is still returned, saying why it ended early.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProfile } from '../profile/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { runLoad } from './index.ts';

describe('load: cancellation', () => {
  let ref: ReferenceServer;
  beforeAll(async () => {
    ref = await startReference();
  });
  afterAll(async () => {
    await ref.close();
  });

  it('stops sending when the signal aborts and reports the run as cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    const r = await runLoad({ scenario: 'user-read', profile: resolveProfile(ref.profile, { env: {} }), arrivalRate: 50, durationSec: 60, signal: controller.signal });
    expect(r.aborted?.reason).toMatch(/cancelled/);
    // Stopped before the schedule ended, counted in sends (50/s for 60 s is 3000), not in seconds.
    expect(r.counts.attempts).toBeLessThan(50 * 60);
  });
});

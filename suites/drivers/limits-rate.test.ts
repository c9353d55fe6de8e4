// limits.token.rate-limit-split on a slowed reference: every answer held 1.5 s, a 2.5 s window. A burst
// fits the window only when it goes out in one round trip; sized after a first batch of 20 it took two
// (3 s) and the check could only skip. The limits are small (10 per IP, 25 per client) so the CPU a
// burst costs stays far below the window's slack on a loaded machine: only the latency is tested.

import { describe, expect, it } from 'vitest';
import { runOnReference } from './variant-run.testkit.ts';

const CHECK = 'limits.token.rate-limit-split';

async function run(faults: string[]) {
  const results = await runOnReference([CHECK], { latencyMs: 1500, rateLimit: { perIp: 10, perClient: 25, windowMs: 2500 }, faults: new Set(faults) });
  return results.get(CHECK)!;
}

describe.concurrent('the token limits per IP and per client, on a target answering in 1.5 s with a 2.5 s window', () => {
  it('the reference passes: each part reaches its limit', async () => {
    const r = await run([]);
    expect(r.verdict, r.reason ?? r.failure?.message).toBe('pass');
  }, 60_000);

  for (const [fault, part] of [['ratelimit.per-ip-only', 'per-client'], ['ratelimit.per-client-only', 'per-IP']] as const) {
    it(`${fault}: fails, the ${part} limit not enforced within one window`, async () => {
      const r = await run([fault]);
      expect(r.verdict, r.reason ?? r.failure?.message).toBe('fail');
      expect(r.failure?.rules).toEqual(['LIMIT-TOKEN-RATE-LIMIT']);
      expect(r.failure?.message).toMatch(new RegExp(`^${part} limit not enforced: .* within one 2\\.5 s window`));
    }, 60_000);
  }
});

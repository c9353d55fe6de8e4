// The client audit on a host whose event loop stalls. The sample client runs in the audit's process, so a
// long callback delays both its retries and the audit's reading of them. Here the loop blocks for 400 ms
// right after each of the later 429s of every token burst (the 4th to the 7th, where the judge looks for
// growth): the recorded waits of a client that retries at once then look like grown ones. It must
// still fail CLIENT-TOKEN-BACKOFF, and the conforming client must still pass it. The audit's record of
// its own stalls is what tells the two apart (stalls.ts); without it the first case passes.
//
// Each audit runs on a worker thread of its own (test/audit/stalling-host.ts), with its client and its
// stalls: side by side, neither loop stalls the other (on one loop they did, and the client that retries
// at once passed).

import { describe, expect, it } from 'vitest';
import { backoffUnderStallsInThread } from '../../test/audit/stalling-host.ts';

describe.concurrent('client audit on a stalling host', () => {
  it('fails the client that retries at once, though stalls made its later waits look grown', async () => {
    const { rule, stalls } = await backoffUnderStallsInThread('no-backoff');
    expect(stalls, 'the audit saw the stalls').toBeGreaterThanOrEqual(4);
    expect(rule.outcome, rule.message).toBe('fail');
    expect(rule.message).toMatch(/\d+ ms \(\d+ ms of it an audit stall\)/);
  }, 120_000);

  it('passes the conforming client under the same stalls', async () => {
    const { rule } = await backoffUnderStallsInThread('none');
    expect(rule.outcome, rule.message).toBe('pass');
  }, 120_000);
});

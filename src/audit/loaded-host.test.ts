// The client audit on a host whose event loop stalls. The sample client runs in this process, so a long
// callback delays both its retries and the audit's reading of them. Here the loop blocks for 400 ms right
// after each of the later 429s of every token burst (the 4th to the 7th, where the judge looks for
// growth): the recorded waits of a client that retries at once then look like grown ones. It must
// still fail CLIENT-TOKEN-BACKOFF, and the conforming client must still pass it. The audit's record of
// its own stalls is what tells the two apart (stalls.ts); without it the first case passes.
// The two audits run one after the other, on this one loop: at once on one loop each saw the other's
// stalls, and at once on two worker threads (each its own loop) a loaded machine descheduled a thread
// mid-wait, a 436 ms wait no stall explained, and the client that retries at once passed (CI, 2 cores
// at load 9).

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { auditMode } from './bank/index.ts';
import { loadModel } from '../model/index.ts';
import { DEFAULT_PLAN } from './plan.ts';

const STALL_MS = 400;
/** The plan's judged bursts (after the short first one) and the 429s without Retry-After before them. */
const [first, ...judged] = DEFAULT_PLAN.token_bursts;
const BURST = judged[0].length;
const BEFORE = first.length - (first.retry_after_seconds === undefined ? 0 : 1);
const FINISH = 'http.server.response.finish';
const model = await loadModel();
const TOKEN_PATH = model.operation('createToken').path;

/** Blocks the loop STALL_MS after the later 429s of each judged token burst (those without Retry-After), at most 40 times. */
function stallAfterLater429s(): () => void {
  let seen = -BEFORE;
  const onFinish = (msg: unknown) => {
    const res = (msg as { response: ServerResponse }).response;
    if (res.statusCode !== 429 || res.req?.url !== TOKEN_PATH || res.getHeader('retry-after') !== undefined || seen >= 40) return;
    const k = seen++;
    if (k < 0 || k % BURST < 3) return;
    setImmediate(() => {
      const end = Date.now() + STALL_MS;
      while (Date.now() < end);
    });
  };
  subscribe(FINISH, onFinish);
  return () => unsubscribe(FINISH, onFinish);
}

async function backoffUnderStalls(mode: 'no-backoff' | 'none') {
  const stop = stallAfterLater429s();
  try {
    const r = await auditMode(mode);
    return { rule: r.verdict.rules.find((x) => x.id === 'CLIENT-TOKEN-BACKOFF')!, stalls: r.verdict.stalls.filter((s) => s.toMs - s.fromMs >= STALL_MS - 50).length };
  } finally {
    stop();
  }
}

describe('client audit on a stalling host', () => {
  it('fails the client that retries at once, though stalls made its later waits look grown', async () => {
    const { rule, stalls } = await backoffUnderStalls('no-backoff');
    expect(stalls, 'the audit saw the stalls').toBeGreaterThanOrEqual(4);
    expect(rule.outcome, rule.message).toBe('fail');
    expect(rule.message).toMatch(/\d+ ms \(\d+ ms of it an audit stall\)/);
  }, 120_000);

  it('passes the conforming client under the same stalls', async () => {
    const { rule } = await backoffUnderStalls('none');
    expect(rule.outcome, rule.message).toBe('pass');
  }, 120_000);
});

// The client audit on a host whose event loop stalls. The sample client runs in this process, so a long
// callback delays both its retries and the audit's reading of them. Here the loop blocks for 400 ms right
// after each of the later 429s of every token burst (the 4th to the 7th, where the judge looks for
// growth): the recorded waits of a client that retries at once then look like grown ones. It must
// still fail CLIENT-TOKEN-BACKOFF, and the conforming client must still pass it. The audit's record of
// its own stalls is what tells the two apart (stalls.ts); without it the first case passes.

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { auditMode } from './bank/index.ts';
import { loadModel } from '../model/index.ts';
import { DEFAULT_PLAN } from './plan.ts';
import type { RuleOutcome } from './types.ts';

const STALL_MS = 400;
/** The plan's judged bursts (after the short first one) and the 429s without Retry-After before them. */
const [first, ...judged] = DEFAULT_PLAN.token_bursts;
const BURST = judged[0].length;
const BEFORE = first.length - (first.retry_after_seconds === undefined ? 0 : 1);
const FINISH = 'http.server.response.finish';
const model = await loadModel();
const TOKEN_PATH = model.operation('createToken').path;

/**
 * Blocks the loop STALL_MS after the later 429s of each judged token burst (those without Retry-After),
 * counted per audit (each has its own server), at most 40 times per audit. Returns the stalls made per audit.
 */
function stallAfterLater429s(): { made: Map<unknown, number>; stop: () => void } {
  const seen = new Map<unknown, number>();
  const made = new Map<unknown, number>();
  const onFinish = (msg: unknown) => {
    const { response: res, server } = msg as { response: ServerResponse; server: unknown };
    if (res.statusCode !== 429 || res.req?.url !== TOKEN_PATH || res.getHeader('retry-after') !== undefined) return;
    const k = seen.get(server) ?? -BEFORE;
    if (k >= 40) return;
    seen.set(server, k + 1);
    if (k < 0 || k % BURST < 3) return;
    made.set(server, (made.get(server) ?? 0) + 1);
    setImmediate(() => {
      const end = Date.now() + STALL_MS;
      while (Date.now() < end);
    });
  };
  subscribe(FINISH, onFinish);
  return { made, stop: () => unsubscribe(FINISH, onFinish) };
}

/**
 * Both clients at once under one injector: each audit's own 429s stall the one host, and each audit's
 * monitor sees every stall, its own and the other's (the conforming client meets more stalls than it
 * would alone, none it could have caused).
 */
let both: Promise<{ made: number[]; byMode: Map<string, { rule: RuleOutcome; stalls: number }> }> | undefined;
function backoffUnderStalls() {
  both ??= (async () => {
    const injector = stallAfterLater429s();
    try {
      const results = await Promise.all((['no-backoff', 'none'] as const).map((m) => auditMode(m)));
      const byMode = new Map(results.map((r) => [r.mode, { rule: r.verdict.rules.find((x) => x.id === 'CLIENT-TOKEN-BACKOFF')!, stalls: r.verdict.stalls.filter((s) => s.toMs - s.fromMs >= STALL_MS - 50).length }]));
      return { made: [...injector.made.values()], byMode };
    } finally {
      injector.stop();
    }
  })();
  return both;
}

describe('client audit on a stalling host', () => {
  it.concurrent('fails the client that retries at once, though stalls made its later waits look grown', async () => {
    const { made, byMode } = await backoffUnderStalls();
    const { rule, stalls } = byMode.get('no-backoff')!;
    // Both audits were stalled after their own later 429s, and the no-backoff audit saw the stalls.
    expect(made, 'stalls made per audit').toHaveLength(2);
    for (const n of made) expect(n).toBeGreaterThanOrEqual(4);
    expect(stalls, 'the audit saw the stalls').toBeGreaterThanOrEqual(4);
    expect(rule.outcome, rule.message).toBe('fail');
    expect(rule.message).toMatch(/\d+ ms \(\d+ ms of it an audit stall\)/);
  }, 120_000);

  it.concurrent('passes the conforming client under the same stalls', async () => {
    const { rule } = (await backoffUnderStalls()).byMode.get('none')!;
    expect(rule.outcome, rule.message).toBe('pass');
  }, 120_000);
});

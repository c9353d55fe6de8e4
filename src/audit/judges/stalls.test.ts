// The timing judges against stalls of the audit's own event loop (../stalls.ts): a request recorded in
// or right after one may have been sent when it began, so a stall never counts against a client.
// Each case also runs without the stall record, where the same traffic gets the opposite verdict.

import { describe, expect, it } from 'vitest';
import { loadModel } from '../../model/index.ts';
import type { ClientRuleId } from '../../model/types.ts';
import { DEFAULT_PLAN } from '../plan.ts';
import type { Stall } from '../stalls.ts';
import type { Exchange } from '../types.ts';
import { JUDGES } from './index.ts';

const model = await loadModel();

function judge(id: ClientRuleId, exchanges: Exchange[], stalls: Stall[]) {
  return JUDGES[id]!({ model, plan: DEFAULT_PLAN, rule: model.clientRule(id), exchanges, deliveries: [], webhooks: false, stalls });
}

const call = (seq: number, extra: Partial<Exchange>): Exchange => ({ seq, server: 'api', method: 'GET', path: '/api/v1/user', query: '', operationId: 'getUserV1', headers: {}, bodyText: '', startMs: 0, endMs: 0, status: 200, ...extra });

describe('timing judges and the audit\'s own stalls', () => {
  it('CLIENT-TOKEN-REFRESH-BUFFER: a call read after a stall that began before the last half of the buffer is not a late use', () => {
    const expSec = 2_000_000;
    const exp = expSec * 1000;
    const buffer = DEFAULT_PLAN.scale.refresh_buffer_seconds * 1000;
    const late = call(1, { startMs: exp - buffer / 2 + 200, endMs: exp - buffer / 2 + 210, token: { kind: 's2s', n: 1, expiresAtSec: expSec } });
    expect(judge('CLIENT-TOKEN-REFRESH-BUFFER', [late], []).status).toBe('fail');
    const stall = { fromMs: exp - buffer + 50, toMs: late.startMs - 5 };
    expect(judge('CLIENT-TOKEN-REFRESH-BUFFER', [late], [stall]).status).not.toBe('fail');
    // A stall that ended long before the call says nothing about it.
    expect(judge('CLIENT-TOKEN-REFRESH-BUFFER', [late], [{ fromMs: exp - buffer, toMs: exp - buffer + 100 }]).status).toBe('fail');
  });

  it('CLIENT-REQUEST-TIMEOUT: a hang-up read after a stall that began within the timeout window is not late', () => {
    const t = DEFAULT_PLAN.scale.request_timeout_seconds * 1000;
    const s = 5_000_000;
    const stalled = call(1, { startMs: s, injected: { kind: 'stall', ms: 4000 }, abandonedMs: s + 1.5 * t + 600, endMs: s + 1.5 * t + 600 });
    expect(judge('CLIENT-REQUEST-TIMEOUT', [stalled], []).status).toBe('fail');
    const stall = { fromMs: s + t, toMs: s + 1.5 * t + 590 };
    expect(judge('CLIENT-REQUEST-TIMEOUT', [stalled], [stall]).status).toBe('pass');
    // The retry instead of the hang-up: the same reading.
    const held = { ...stalled, abandonedMs: undefined, endMs: s + 4000 };
    const retry = call(2, { startMs: s + 1.5 * t + 600, endMs: s + 1.5 * t + 610 });
    expect(judge('CLIENT-REQUEST-TIMEOUT', [held, retry], []).status).toBe('fail');
    expect(judge('CLIENT-REQUEST-TIMEOUT', [held, retry], [stall]).status).toBe('pass');
    // Too early stays too early: a stall only ever makes a wait look longer.
    const early = { ...stalled, abandonedMs: s + 0.3 * t, endMs: s + 0.3 * t };
    expect(judge('CLIENT-REQUEST-TIMEOUT', [early], [{ fromMs: s, toMs: s + 0.3 * t }]).status).toBe('fail');
  });
});

// Test helper (not exported from index.ts): token traffic with bursts of 429s the way the audit records
// it (front.ts: each 429 marked with its burst, the client's next attempt after a wait), judged by the
// real CLIENT-TOKEN-BACKOFF judge, so the tests measure the judge itself, not a copy of its arithmetic.

import type { Model } from '../../model/types.ts';
import { DEFAULT_PLAN, type AuditPlan } from '../plan.ts';
import type { Stall } from '../stalls.ts';
import type { Exchange, Judgement } from '../types.ts';
import { tokenBackoff } from './backoff.ts';

/**
 * Token calls: burst b is 429 x waits.length, then a 200; each wait (ms) runs from a 429's answer to the
 * next attempt. `stalled[b][i]` (ms, optional) says the audit's event loop stalled for that long just
 * before wait i of burst b ended: the stall the audit records, ending as the next attempt arrives.
 */
export function tokenTraffic(bursts: readonly (readonly number[])[], stalled: readonly (readonly number[])[] = []): { exchanges: Exchange[]; stalls: Stall[] } {
  const out: Exchange[] = [];
  const stalls: Stall[] = [];
  let t = 1_000_000;
  const add = (extra: Partial<Exchange>) => {
    out.push({ seq: out.length + 1, server: 'api', method: 'POST', path: '/t', query: '', operationId: 'createToken', headers: {}, bodyText: '', startMs: t, endMs: t + 2, status: 200, ...extra });
    t += 2;
  };
  bursts.forEach((waits, b) => {
    waits.forEach((w, i) => {
      add({ status: 429, injected: { kind: 'rate-limit', burst: `token-${b + 1}` } });
      t += w;
      const s = stalled[b]?.[i] ?? 0;
      if (s > 0) stalls.push({ fromMs: t - s, toMs: t });
    });
    add({});
    t += 3000;
  });
  return { exchanges: out, stalls };
}

export function judgeBackoff(model: Model, bursts: readonly (readonly number[])[], plan: AuditPlan = DEFAULT_PLAN, stalled: readonly (readonly number[])[] = []): Judgement {
  const { exchanges, stalls } = tokenTraffic(bursts, stalled);
  return tokenBackoff({ model, plan, rule: model.clientRule('CLIENT-TOKEN-BACKOFF'), exchanges, deliveries: [], webhooks: false, stalls });
}

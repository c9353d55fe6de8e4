// Test helper (not exported from index.ts): token traffic with bursts of 429s the way the audit records
// it (front.ts: each 429 marked with its burst, the client's next attempt after a wait), judged by the
// real CLIENT-TOKEN-BACKOFF judge, so the tests measure the judge itself, not a copy of its arithmetic.

import type { Model } from '../../model/types.ts';
import { DEFAULT_PLAN, type AuditPlan } from '../plan.ts';
import type { Exchange, Judgement } from '../types.ts';
import { tokenBackoff } from './backoff.ts';

/** Token calls: burst b is 429 x waits.length, then a 200; each wait (ms) runs from a 429's answer to the next attempt. */
export function tokenTraffic(bursts: readonly (readonly number[])[]): Exchange[] {
  const out: Exchange[] = [];
  let t = 1_000_000;
  const add = (extra: Partial<Exchange>) => {
    out.push({ seq: out.length + 1, server: 'api', method: 'POST', path: '/t', query: '', operationId: 'createToken', headers: {}, bodyText: '', startMs: t, endMs: t + 2, status: 200, ...extra });
    t += 2;
  };
  bursts.forEach((waits, b) => {
    for (const w of waits) {
      add({ status: 429, injected: { kind: 'rate-limit', burst: `token-${b + 1}` } });
      t += w;
    }
    add({});
    t += 3000;
  });
  return out;
}

export function judgeBackoff(model: Model, bursts: readonly (readonly number[])[], plan: AuditPlan = DEFAULT_PLAN): Judgement {
  return tokenBackoff({ model, plan, rule: model.clientRule('CLIENT-TOKEN-BACKOFF'), exchanges: tokenTraffic(bursts), deliveries: [], webhooks: false });
}

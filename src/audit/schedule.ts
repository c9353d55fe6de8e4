// Which adverse condition meets which call. The plan names calls by their order ("the 2nd token
// call"); the seed picks the non-token calls. A call is fresh unless it retries a call the audit just
// answered with a 429 or a stall, so a burst of 429s meets one logical request and its retries. On the
// token endpoint any request after a 429 is a retry, whether the HTTP library sends it or the
// application asks for a token again (a library that does not retry POST leaves that to the application).

import type { AuditPlan } from './plan.ts';
import { seededRandom as seeded } from '../runner/seed.ts';

export type Decision = { kind: 'rate-limit'; burst?: string; retryAfter?: number } | { kind: 'stall'; ms: number } | undefined;

interface Burst {
  id: string;
  key: string;
  remaining: number;
  /** Retry-After on the burst's last 429. */
  retryAfter?: number;
}

export class FaultSchedule {
  private tokenFresh = 0;
  private otherFresh = 0;
  private getFresh = 0;
  private burst?: Burst;
  /** Keys (method + path) whose last call the audit answered with a condition: their next call is a retry. */
  private readonly lastInjected = new Set<string>();
  private readonly stallAt: number | undefined;
  private readonly otherBurstAt: number | undefined;

  constructor(private readonly plan: AuditPlan) {
    const rnd = seeded(plan.seed);
    if (plan.stall) this.stallAt = 1 + Math.floor(rnd() * plan.stall.within_first);
    if (plan.other_burst) {
      const taken = new Set(plan.retry_after.filter((r) => r.on === 'other').map((r) => r.at_call));
      const free = Array.from({ length: plan.other_burst.within_first + taken.size }, (_, i) => i + 1).filter((i) => !taken.has(i));
      this.otherBurstAt = free[Math.floor(rnd() * Math.min(free.length, plan.other_burst.within_first))];
    }
  }

  decide(call: { isToken: boolean; method: string; path: string }): Decision {
    const key = call.isToken ? 'token' : `${call.method} ${call.path}`;
    const d = this.pick(call, key);
    if (d) this.lastInjected.add(key);
    else this.lastInjected.delete(key);
    return d;
  }

  private pick(call: { isToken: boolean; method: string }, key: string): Decision {
    if (this.burst && this.burst.key === key && this.burst.remaining > 0) {
      const b = this.burst;
      b.remaining--;
      return { kind: 'rate-limit', burst: b.id, ...(b.remaining === 0 && b.retryAfter !== undefined ? { retryAfter: b.retryAfter } : {}) };
    }
    if (this.lastInjected.has(key)) return undefined;
    if (call.isToken) {
      const n = ++this.tokenFresh;
      const b = this.plan.token_bursts.find((x) => x.at_token_call === n);
      if (b) return this.start(`token-${n}`, key, b.length, b.retry_after_seconds);
      const ra = this.plan.retry_after.find((x) => x.on === 'token' && x.at_call === n);
      return ra ? { kind: 'rate-limit', retryAfter: ra.seconds } : undefined;
    }
    if (call.method === 'GET') {
      const n = ++this.getFresh;
      return n === this.stallAt && this.plan.stall ? { kind: 'stall', ms: this.plan.stall.seconds * 1000 } : undefined;
    }
    const n = ++this.otherFresh;
    if (n === this.otherBurstAt && this.plan.other_burst) return this.start(`other-${n}`, key, this.plan.other_burst.length);
    const ra = this.plan.retry_after.find((x) => x.on === 'other' && x.at_call === n);
    return ra ? { kind: 'rate-limit', retryAfter: ra.seconds } : undefined;
  }

  private start(id: string, key: string, length: number, retryAfter?: number): Decision {
    this.burst = { id, key, remaining: length - 1, ...(retryAfter !== undefined ? { retryAfter } : {}) };
    return { kind: 'rate-limit', burst: id, ...(length === 1 && retryAfter !== undefined ? { retryAfter } : {}) };
  }
}

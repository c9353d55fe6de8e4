// The fault plan of a client audit (`--faults plan.yaml`, spec/schemas/audit-plan.schema.json): which
// adverse conditions the audit imposes, scaled so an audit takes seconds. The spec's 30 s timeout and
// 5 minute refresh buffer become the plan's `scale`, published in the profile so a client can be
// configured with them; the judges measure against the same numbers.

import type { ErrorObject } from 'ajv';
import { AuditPlanError, describeSchemaProblem } from '../errors/index.ts';
import { readInputFile } from '../input/index.ts';
import { schemaFileValidator } from '../schemas/index.ts';

export interface AuditPlan {
  seed: number;
  scale: { token_lifetime_seconds: number; refresh_buffer_seconds: number; request_timeout_seconds: number };
  /** `retry_after_seconds`: the burst's last 429 carries Retry-After (the short first burst). */
  token_bursts: { at_token_call: number; length: number; retry_after_seconds?: number }[];
  retry_after: { on: 'token' | 'other'; at_call: number; seconds: number }[];
  other_burst?: { length: number; within_first: number };
  stall?: { seconds: number; within_first: number };
  backoff: { factor: number; min_growth_ms: number };
  webhooks: { duplicate: boolean; late_ms: number; extra_field: string };
}

/**
 * The default plan: every client that gets a token at all gets to show every rule.
 * - Token call #1 meets a short burst, two 429s, the second with Retry-After 3 s: a client whose HTTP
 *   library does not retry POST (got, ky, undici's RetryAgent, axios-retry by default) gets its token on
 *   its application's next try and goes on to show the other rules. Retry-After is 3 s on the token call
 *   and 2 s on the 2nd other call: no library waits that long before its first retry by default (got and
 *   p-retry 1 s, undici 0.5 s, ky 0.3 s, axios-retry none), so a client that ignores the header cannot
 *   pass by its own schedule.
 * - Token calls #2, #3 and #4, the first three renewals after a success, meet bursts of seven 429s
 *   (seven waits each: the first three set where the burst started, the four after them show growth,
 *   judges/backoff.ts). The third burst keeps the slowest conforming growers (full jitter from 25 ms
 *   under a 1 s cap, decorrelated jitter, exponential from 250 ms capped at the 3rd wait) under 1 false
 *   failure in 1000 (backoff.sim.test.ts); two bursts, of any length, do not.
 * - Every timing is scaled together, so no verdict hangs on a fraction of a second: the refresh buffer
 *   is 4 s, longer than any Retry-After, so a request sent with a token about the buffer before expiry
 *   and retried after Retry-After (undici's RetryAgent re-sends the first attempt's headers) still
 *   presents a live token. Tokens live 9 s (8-9 s: expires_at is whole seconds): a client with the 4 s
 *   buffer renews every ~5 s, and a token call while a cached token has more than twice the buffer (8 s)
 *   to live is premature.
 * `backoff`: a later wait must reach 1.5 x the shortest of the first three + 300 ms, the longest
 * scheduling stall tolerated (stalls of 50-300 ms were seen on a 2-core host at load 10-14).
 */
export const DEFAULT_PLAN: AuditPlan = {
  seed: 1,
  scale: { token_lifetime_seconds: 9, refresh_buffer_seconds: 4, request_timeout_seconds: 1.5 },
  token_bursts: [{ at_token_call: 1, length: 2, retry_after_seconds: 3 }, { at_token_call: 2, length: 7 }, { at_token_call: 3, length: 7 }, { at_token_call: 4, length: 7 }],
  retry_after: [{ on: 'other', at_call: 2, seconds: 2 }],
  other_burst: { length: 2, within_first: 4 },
  stall: { seconds: 4, within_first: 3 },
  backoff: { factor: 1.5, min_growth_ms: 300 },
  webhooks: { duplicate: true, late_ms: 300, extra_field: 'x_audit_unknown_field' },
};

export { AuditPlanError };

async function firstError(plan: unknown): Promise<ErrorObject | undefined> {
  const validator = schemaFileValidator('audit-plan.schema.json');
  return validator(plan) ? undefined : validator.errors![0];
}

const describe = describeSchemaProblem;

/** Validates a plan object (from a file or a caller) and fills the defaults. */
export async function resolvePlan(raw: unknown, name = 'plan'): Promise<AuditPlan> {
  if (raw === undefined || raw === null) return DEFAULT_PLAN;
  const e = await firstError(raw);
  if (e) throw new AuditPlanError(name, e.instancePath, describe(e));
  const p = raw as Partial<AuditPlan>;
  const d = DEFAULT_PLAN;
  const plan: AuditPlan = {
    seed: p.seed ?? d.seed,
    scale: { ...d.scale, ...p.scale },
    token_bursts: p.token_bursts ?? d.token_bursts,
    retry_after: p.retry_after ?? d.retry_after,
    other_burst: p.other_burst ? { length: p.other_burst.length, within_first: p.other_burst.within_first ?? 4 } : 'other_burst' in p ? undefined : d.other_burst,
    stall: p.stall ? { seconds: p.stall.seconds, within_first: p.stall.within_first ?? 3 } : 'stall' in p ? undefined : d.stall,
    backoff: { ...d.backoff, ...p.backoff },
    webhooks: { ...d.webhooks, ...p.webhooks },
  };
  const tokenCalls = [...plan.token_bursts.map((b) => b.at_token_call), ...plan.retry_after.filter((r) => r.on === 'token').map((r) => r.at_call)];
  if (new Set(tokenCalls).size !== tokenCalls.length) throw new AuditPlanError(name, '/token_bursts', 'two conditions start on the same token call');
  if (plan.stall && plan.stall.seconds <= plan.scale.request_timeout_seconds) {
    throw new AuditPlanError(name, '/stall/seconds', `the stall (${plan.stall.seconds} s) must outlast the timeout it judges against (scale.request_timeout_seconds ${plan.scale.request_timeout_seconds} s)`);
  }
  // Scaled together: a Retry-After as long as the buffer would push a conforming client's retry past
  // the expiry of the token it sent, a verdict of the scaling, not of the client.
  const longest = Math.max(0, ...plan.retry_after.map((r) => r.seconds), ...plan.token_bursts.map((b) => b.retry_after_seconds ?? 0));
  if (longest >= plan.scale.refresh_buffer_seconds) {
    throw new AuditPlanError(name, '/scale/refresh_buffer_seconds', `the refresh buffer (${plan.scale.refresh_buffer_seconds} s) must be longer than every Retry-After (${longest} s): scale them together`);
  }
  return plan;
}

export async function readAuditPlan(file: string): Promise<AuditPlan> {
  const doc = await readInputFile(file, { what: 'audit plan', format: 'yaml', error: (f, pointer, problem, line) => new AuditPlanError(f, pointer ?? '', problem, line) });
  try {
    return resolvePlan(doc.value ?? {}, file);
  } catch (err) {
    throw doc.locate(err);
  }
}


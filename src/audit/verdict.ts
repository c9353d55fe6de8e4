// From judgements to a verdict: a failed required rule fails the audit; a failed recommended rule is
// a warning, and fails the audit only under --strict. Untestable rules are listed with their reason.
// An audit that judged no rule, or fewer than its floor (--min-exercised), is inconclusive (exit 4),
// never a pass, --strict or not; a failed rule still fails it.

import { conclude, exitCodeOf, inconclusive } from '../errors/index.ts';
import type { Model } from '../model/types.ts';
import { JUDGES } from './judges/index.ts';
import type { AuditPlan } from './plan.ts';
import type { Stall } from './stalls.ts';
import type { AuditVerdict, Delivery, Exchange, RuleOutcome, RuleStatus } from './types.ts';

/**
 * Why the audit judged nothing: no exchange at all (no client called, e.g. a CI job whose client never
 * started), or exchanges none of which exercised a client rule. Undefined once any rule was judged.
 */
function judgedNothing(exchanges: number, counts: Record<RuleStatus, number>): string | undefined {
  if (exchanges === 0) return inconclusive('the audit', 'no exchange was recorded: no client called base_url or pci_url of the printed profile before the audit ended');
  if (counts.pass + counts.fail + counts.warn === 0) return inconclusive('the audit', `none of the ${exchanges} exchange${exchanges === 1 ? '' : 's'} recorded exercised a client rule (${counts['not-exercised']} not exercised, ${counts.untestable} untestable)`);
  return undefined;
}

/**
 * The default floor of `audit --min-exercised`: the client rules an audit must judge before its verdict
 * can certify a client. A partner flow run through the plan's token renewals shows 10 or more of the 13
 * testable rules (the sample client 12, 11 without --webhook-url; an application on an HTTP library 10-11).
 * A client stopped by the first 429s, or run too briefly for its renewals to meet the plan's bursts,
 * shows fewer (8-9: no backoff, no refresh), and an audit of it is inconclusive, not a pass.
 */
export const DEFAULT_MIN_EXERCISED = 10;

/** Below the floor: which rules were not exercised and why (each judge's own words). */
function belowFloor(rules: readonly RuleOutcome[], judged: number, floor: number): string | undefined {
  if (judged === 0 || judged >= floor) return undefined;
  const testable = rules.filter((r) => r.outcome !== 'untestable').length;
  const missing = rules.filter((r) => r.outcome === 'not-exercised').map((r) => `${r.id} (${r.message})`);
  return inconclusive('the audit', `it exercised ${judged} of ${testable} testable client rules, fewer than the floor of ${floor} (--min-exercised): not exercised ${missing.join('; ')}`);
}

export function judge(input: { model: Model; plan: AuditPlan; exchanges: readonly Exchange[]; deliveries: readonly Delivery[]; webhooks: boolean; strict: boolean; stalls: readonly Stall[]; minExercised?: number }): AuditVerdict {
  const rules: RuleOutcome[] = input.model.clientRules.map((rule) => {
    const base = { id: rule.id, level: rule.level, section: rule.section, quote: rule.quote, summary: rule.summary, ...(rule.cites ? { cites: rule.cites } : {}) };
    const j = JUDGES[rule.id];
    if (!rule.testable || !j) {
      return { ...base, status: 'not-exercised', outcome: 'untestable', message: rule.untestable_reason ?? 'no judge', exchanges: [] } as RuleOutcome;
    }
    const r = j({ model: input.model, plan: input.plan, rule, exchanges: input.exchanges, deliveries: input.deliveries, webhooks: input.webhooks, stalls: input.stalls });
    const outcome: RuleStatus = r.status === 'fail' ? (rule.level === 'required' ? 'fail' : 'warn') : r.status;
    return { ...base, ...r, outcome };
  });
  const counts: Record<RuleStatus, number> = { pass: 0, fail: 0, warn: 0, 'not-exercised': 0, untestable: 0 };
  for (const r of rules) counts[r.outcome]++;
  const failed = counts.fail > 0 || (input.strict && counts.warn > 0);
  const nothing = judgedNothing(input.exchanges.length, counts) ?? belowFloor(rules, counts.pass + counts.fail + counts.warn, input.minExercised ?? 0);
  const verdict = conclude(failed, nothing !== undefined);
  return { exitCode: exitCodeOf(verdict), verdict, ...(nothing ? { inconclusive: nothing } : {}), strict: input.strict, rules, counts, exchanges: [...input.exchanges], deliveries: [...input.deliveries], dropped: 0, stalls: [...input.stalls] };
}

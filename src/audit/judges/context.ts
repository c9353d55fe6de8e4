// What every judge receives: the model, the plan, the rule it judges and the recorded traffic.

import type { ClientRule, ClientRuleId, Model } from '../../model/types.ts';
import type { AuditPlan } from '../plan.ts';
import { sentNoEarlierThan, type Stall } from '../stalls.ts';
import type { Delivery, Exchange, Judgement } from '../types.ts';

export interface JudgeContext {
  model: Model;
  plan: AuditPlan;
  rule: ClientRule;
  exchanges: readonly Exchange[];
  deliveries: readonly Delivery[];
  /** Whether the audit delivered webhooks to a receiver (--webhook-url). */
  webhooks: boolean;
  /** The audit's own event-loop stalls over the traffic (stalls.ts). */
  stalls: readonly Stall[];
}

/** The earliest the client may have sent `ex`: its recorded start, or the start of an audit stall it was recorded in or right after. */
export const sentAtLeast = (ctx: JudgeContext, ex: Exchange): number => sentNoEarlierThan(ctx.stalls, ex.startMs);

export type Judge = (ctx: JudgeContext) => Judgement;

/** A judges file's rules and their judges: a misspelt id fails tsc, and index.ts fails it while a testable rule has none. */
export type JudgeGroup = Partial<Record<ClientRuleId, Judge>>;

export const notExercised = (message: string): Judgement => ({ status: 'not-exercised', message, exchanges: [] });

/** A header of a recorded request (names are lower-cased on record); '' counts as absent. */
export function headerOf(ex: Exchange, name: string): string | undefined {
  const v = ex.headers[name.toLowerCase()];
  return v === undefined || v === '' ? undefined : v;
}

export const seqs = (list: readonly Exchange[]): number[] => list.map((e) => e.seq);

/** "#3, #4, #9" (at most `max`, then "and N more"). */
export function cite(list: readonly number[], max = 8): string {
  const shown = list.slice(0, max).map((s) => `#${s}`).join(', ');
  return list.length > max ? `${shown} and ${list.length - max} more` : shown;
}

export const ms = (v: number): string => `${Math.round(v)} ms`;

/** "the spec's 30 s": a section 8 value as the model holds it, for messages about scaled times. */
export function specValue(ctx: JudgeContext, key: 'request_timeout' | 'token_refresh_buffer' | 's2s_token_validity'): string {
  const l = ctx.model.limits[key];
  return l?.value !== undefined ? `the spec's ${l.value} ${l.unit ?? ''}`.trim() : 'the spec\'s value';
}

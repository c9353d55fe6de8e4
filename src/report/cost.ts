// Requests worth their cost (issue 32): for each check, the requests it sent per rule it exercised.
// A check that passed or failed judged its rules; a skipped or blocked one judged none, so every
// request it sent is counted against no rule (requestsPerRule is then its whole count). Read from the
// check results alone: the same figure in results.json and in the HTML report.

import type { CheckResult } from '../events/index.ts';

export interface RequestCost {
  checkId: string;
  requests: number;
  /** Rules the check judged: its rules when it passed or failed, none when skipped or blocked. */
  rulesExercised: number;
  /** requests / rulesExercised, one decimal; the whole count when no rule was exercised. */
  requestsPerRule: number;
}

/** Rows of the HTML report's table of the costliest checks. */
export const COST_TOP = 10;

export function requestCost(c: Pick<CheckResult, 'checkId' | 'requests' | 'rules' | 'verdict'>): RequestCost {
  const rulesExercised = c.verdict === 'pass' || c.verdict === 'fail' ? new Set(c.rules).size : 0;
  return { checkId: c.checkId, requests: c.requests, rulesExercised, requestsPerRule: Math.round((c.requests / Math.max(1, rulesExercised)) * 10) / 10 };
}

/** Every check's cost, the most requests per rule first (then the most requests, then by id: a stable order). */
export function requestCosts(checks: readonly Pick<CheckResult, 'checkId' | 'requests' | 'rules' | 'verdict'>[]): RequestCost[] {
  return checks.map(requestCost).sort((a, b) => b.requestsPerRule - a.requestsPerRule || b.requests - a.requests || a.checkId.localeCompare(b.checkId));
}

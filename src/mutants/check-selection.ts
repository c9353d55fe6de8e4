// Which checks a variant's run needs. Mutation-testing tools run only the tests that cover a mutant
// (Stryker's perTest coverage); here the coverage is declared, not measured: a failing check names
// its own rules (Check.rules) or a rule every answer is held to, nothing else (src/runner/failure.ts
// keeps an assertion's rules within the check's own, except the audit's and a transport failure's).
// So a faulty variant is caught, if at all, by a check of its broken rule, unless that rule is one
// every answer is held to: then any check may name it and every check runs. The baseline and the
// benign variants always run every check: false positives come from there. Never derived from past
// results: a check that newly names a rule is selected by its declaration alone.

import type { AnswerFinding } from '../checks/audit.ts';
import type { Check } from '../checks/types.ts';
import { JSON_BODY_RULE } from '../client/decode.ts';
import type { Model } from '../model/types.ts';
import { brokenRules, type MutantVariant } from './variant.ts';

/**
 * The rules the audit of every answer names (src/checks/audit.ts AnswerFinding): typed against its
 * union, so a rule added to the audit fails tsc here until it is listed.
 */
const AUDIT_RULES = {
  'ERR-BODY-SHAPE': true,
  'ERR-CATEGORY-STATUS': true,
  'GENERAL-TRANSPORT-JSON': true,
  'ENDPOINT-RESPONSE-SCHEMA': true,
  'VERSION-FIELD-NAMING': true,
} as const satisfies Record<AnswerFinding['rule'], true>;

/**
 * Rules any check's failure may name whatever its own rules: the audit's, the transport failure's
 * (a body that is not JSON the client can read) and the request budget's (a request that ran out of
 * time, src/runner/failure.ts).
 */
export function everyAnswerRules(model: Pick<Model, 'limits'>): ReadonlySet<string> {
  const budget = model.limits.request_timeout?.id;
  return new Set([...Object.keys(AUDIT_RULES), JSON_BODY_RULE, ...(budget ? [budget] : [])]);
}

/**
 * The checks a run of `variant` (undefined: the baseline) needs: every check, unless the variant is
 * faulty and breaks no rule of every answer; then the checks declaring a rule it breaks and those its
 * `reach` names (the minimal-profile accounting reads their skips). `all` keeps every check.
 */
export function checksFor<C extends Pick<Check, 'id' | 'rules'>>(variant: MutantVariant | undefined, checks: readonly C[], model: Pick<Model, 'limits'>, all = false): readonly C[] {
  if (all || !variant || variant.kind !== 'faulty') return checks;
  const broken: readonly string[] = brokenRules(variant);
  const every = everyAnswerRules(model);
  if (broken.some((r) => every.has(r))) return checks;
  const reach = new Set(variant.reach ?? []);
  return checks.filter((c) => reach.has(c.id) || c.rules.some((r) => broken.includes(r)));
}

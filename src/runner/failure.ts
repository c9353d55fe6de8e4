// How whatever a check threw becomes its failure: the rules it names (within the check's own, except
// an audit of every answer), the cause (a transport fault of the target, a time limit, a bug in the
// check), the exchange to show and a counterexample when fast-check found one. Everything that can
// carry a secret goes through `mask`.

import { AuditFailure } from '../checks/audit.ts';
import type { Check } from '../checks/types.ts';
import { counterexampleFromAssertError } from '../checks/property.ts';
import { isCheckFailure } from '../checks/signals.ts';
import type { CheckHttpClient } from '../client/index.ts';
import { TransportError } from '../client/errors.ts';
import type { CheckFailureInfo } from '../events/index.ts';
import type { Model, RuleId } from '../model/types.ts';

/** The reason a check's signal aborts when it outlives its time limit. */
export class CheckTimeout extends Error {
  constructor(ms: number) {
    super(`check exceeded its ${ms} ms time limit`);
    this.name = 'CheckTimeout';
  }
}

export function failureFromError(err: unknown, check: Check, http: CheckHttpClient, mask: (s: string) => string, timedOut: CheckTimeout | undefined, model?: Model, controlUrl?: string): CheckFailureInfo {
  if (timedOut) {
    return { message: timedOut.message, rules: check.rules, cause: 'CHECK_TIMEOUT', exchange: http.lastExchange };
  }
  if (isCheckFailure(err)) {
    // The contract says failure rules are a subset of the check's rules; an assertion naming other
    // rules (a helper reused across checks) falls back to the check's own.
    // An audit failure (src/checks/audit.ts) names a rule of every answer the check need not cover: kept as named.
    const named = err instanceof AuditFailure ? ((err.rules ?? []) as RuleId[]) : (err.rules ?? []).filter((r): r is RuleId => (check.rules as readonly string[]).includes(r));
    const info: CheckFailureInfo = { message: mask(err.message), rules: named.length ? named : check.rules, rulesNamed: named.length > 0 };
    if (!named.length && err.rules?.length) info.namedOutsideCheck = true;
    const op = (err as { operation?: unknown }).operation;
    if (typeof op === 'string') info.operation = op;
    if (err.counterexample) info.counterexample = mask(err.counterexample);
    // Expected values come from the model (no secrets; masking would garble rows like "Bearer token is ...").
    if (err.comparison) info.comparison = err.comparison.map((c) => ({ ...c, actual: mask(c.actual) }));
    const exchange = (err.response && http.exchangeOf(err.response)) ?? http.lastExchange;
    if (exchange) info.exchange = exchange;
    return info;
  }
  if (err instanceof TransportError) {
    // A target that answers too slowly broke the section 8 budget, and a body nested too deep or in a
    // coding that does not decode broke "all bodies are JSON": not the schema or state rule the check
    // was about to look at.
    // The test-control API is the sandbox's, not the partner API: its faults break no partner rule.
    const onControl = !!controlUrl && err.url.startsWith(controlUrl);
    const named = onControl ? undefined : (err.ruleId ?? (err.code === 'TIMEOUT' ? model?.limits.request_timeout?.id : undefined));
    const budgetRule = named && model?.rules.some((r) => r.id === named) ? named : undefined;
    if (budgetRule) return { message: `transport failure: ${mask(err.message)}`, rules: [budgetRule], rulesNamed: true, cause: err.code, exchange: http.lastExchange };
    return { message: `transport failure: ${mask(err.message)}`, rules: check.rules, cause: err.code, exchange: http.lastExchange };
  }
  const counterexample = counterexampleFromAssertError(err);
  if (counterexample) {
    return { message: 'property failed', rules: check.rules, counterexample: mask(counterexample), exchange: http.lastExchange };
  }
  // Anything else is a bug in the check or an unexpected target answer the check did not handle.
  const message = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return { message: `check error: ${mask(message)}`, rules: check.rules, cause: 'CHECK_ERROR', exchange: http.lastExchange };
}

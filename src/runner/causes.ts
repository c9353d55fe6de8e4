// Root causes. A blocked check names the operation whose setup step failed; the rules it is blocked
// by come from the model (the rules that list that operation), never from a table here. The run's
// summary then counts causes: each own failure, plus each blocking operation no own failure explains.

import { isPrerequisiteFailed } from '../checks/prerequisite.ts';
import { isTransportError } from '../client/errors.ts';
import { isControlAdapterFault } from '../control/guard.ts';
import type { Check } from '../checks/types.ts';
import type { CheckHttpClient } from '../client/index.ts';
import type { BlockedInfo, CheckFailureInfo, CheckResult, RootCause, RuleVerdict } from '../events/index.ts';
import type { Model, RuleKind } from '../model/types.ts';

/**
 * Which kinds of rule describe an operation's happy path, most specific first. Error rows are left
 * out: a setup call is a valid request, so it cannot break a "this bad input gets that error" row.
 */
const HAPPY_PATH_KINDS: RuleKind[] = ['endpoint', 'auth', 'state', 'general', 'alias', 'versioning', 'event', 'limit'];

/** The rules a failed call to `operation` breaks: the model's rules of the first kind in HAPPY_PATH_KINDS that lists it. */
export function blockingRules(model: Model, operation: string): string[] {
  const listing = model.rules.filter((r) => r.testable !== false && r.kind !== 'error' && (r.operations as readonly string[]).includes(operation));
  for (const kind of HAPPY_PATH_KINDS) {
    const ids = listing.filter((r) => r.kind === kind).map((r) => r.id);
    if (ids.length) return ids;
  }
  return [];
}

/** Operations the check's own rules are about: a failed step on one of them is the check's own failure. */
export function ownOperations(model: Model, check: Check): Set<string> {
  const own = new Set<string>();
  for (const id of check.rules) for (const op of model.rules.find((r) => r.id === id)?.operations ?? []) own.add(op);
  return own;
}

/**
 * A failed prerequisite step: blocked by that operation, unless the check's own rules are about it
 * (the push-to-card flow check calling tokenize), in which case it is the check's own failure.
 */
export function blockedOrOwn(err: unknown, check: Check, model: Model, http: CheckHttpClient, mask: (s: string) => string): { blocked: BlockedInfo } | { failure: CheckFailureInfo } | undefined {
  if (!isPrerequisiteFailed(err)) return undefined;
  const exchange = (err.response && http.exchangeOf(err.response)) ?? http.lastExchange;
  const message = mask(err.message);
  // The control adapter is the user's (or the sandbox's): its error is never the check's own failure
  // and names no rule, whatever the check is about.
  if (isControlAdapterFault(err)) {
    const blocked: BlockedInfo = { operation: err.operation, rules: [], message, adapter: { ...err.adapter, source: mask(err.adapter.source) } };
    if (exchange) blocked.exchange = exchange;
    return { blocked };
  }
  // A step refused for credentials the profile supplies (operation_auth) judged nothing: blocked, even on the check's own operation.
  if (!err.setting && ownOperations(model, check).has(err.operation)) {
    const mine = model.rules.filter((r) => (r.operations as readonly string[]).includes(err.operation) && check.rules.includes(r.id)).map((r) => r.id);
    // The rules are named by the model (this check's rules that list the failed operation), not guessed.
    return { failure: { message, rules: mine.length ? mine : check.rules, rulesNamed: mine.length > 0, operation: err.operation, ...(exchange ? { exchange } : {}) } };
  }
  const blocked: BlockedInfo = { operation: err.operation, rules: err.rules ?? blockingRules(model, err.operation), message };
  if (exchange) blocked.exchange = exchange;
  return { blocked };
}

/**
 * An answer the check could not judge, through no rule of the target's:
 * - BODY_TOO_LARGE: a body over the client's size cap (a gzip bomb included). The spec sets no
 *   body-size limit (section 8 lists none), and nothing can be judged from an unread answer.
 * - RATE_LIMITED: the target kept answering 429 after the client waited it out to its bound. Section 8
 *   shows no numeric limits, so a 429 is the target's right; it is never taken as the answer of a
 *   check that does not test rate limiting, and never fails an unrelated rule.
 * - SLASH_REDIRECT: the operation redirected to its own path with the trailing slash toggled; the
 *   profile spells the path differently from the target's route (the error says which entry).
 * The check is blocked by the operation that answered, naming no rule, with the cause. Not a pass
 * either: the run still fails.
 */
const UNREADABLE = {
  BODY_TOO_LARGE: 'the spec sets no body-size limit, so the check cannot judge an answer the client does not read (raise maxBodyBytes to read it)',
  RATE_LIMITED: 'section 8 shows no numeric rate limits, so a target may answer 429; the check observed nothing about its own rules',
  SLASH_REDIRECT: 'a redirect between a path and its trailing-slash form is the framework\'s routing, not an answer of the spec (ERR-BODY-SHAPE reading framework-routes); the check observed nothing about its own rules',
} as const;

export function unreadableAnswer(err: unknown, http: CheckHttpClient, mask: (s: string) => string): { blocked: BlockedInfo } | undefined {
  if (!isTransportError(err) || !(err.code in UNREADABLE)) return undefined;
  const why = UNREADABLE[err.code as keyof typeof UNREADABLE];
  const blocked: BlockedInfo = {
    operation: err.operation ?? (err.code === 'RATE_LIMITED' ? 'rate-limit' : 'response-body'),
    rules: [],
    message: mask(`${err.code}: ${err.message}; ${why}`),
  };
  if (http.lastExchange) blocked.exchange = http.lastExchange;
  return { blocked };
}

/**
 * Own failures (those on the same operation merged: two checks failing on the tokenize call are one
 * cause), each with the blocked checks it explains; then blocking operations no own failure explains.
 */
export function rootCauses(results: CheckResult[]): RootCause[] {
  const causes: RootCause[] = [];
  const byOperation = new Map<string, RootCause>();
  for (const r of results) {
    if (r.verdict !== 'fail') continue;
    const op = r.failure?.operation;
    const rules = r.failure?.rules ?? r.rules;
    const existing = op ? byOperation.get(op) : undefined;
    if (existing) {
      existing.checks.push(r.checkId);
      for (const id of rules) if (!existing.rules.includes(id)) existing.rules.push(id);
      continue;
    }
    const cause: RootCause = { kind: 'failure', id: r.checkId, rules: [...rules], message: r.failure?.message ?? 'failed', checks: [r.checkId], blocked: [] };
    if (op) {
      cause.operation = op;
      byOperation.set(op, cause);
    }
    causes.push(cause);
  }
  for (const r of results) {
    if (r.verdict !== 'blocked' || !r.blocked) continue;
    const op = r.blocked.operation;
    let cause = byOperation.get(op);
    if (!cause) {
      cause = { kind: 'blocking', id: op, operation: op, ...(r.blocked.adapter ? { adapter: r.blocked.adapter.source } : {}), rules: [...r.blocked.rules], message: r.blocked.message, checks: [], blocked: [] };
      byOperation.set(op, cause);
      causes.push(cause);
    }
    cause.blocked.push(r.checkId);
  }
  // The cause that explains the most checks first; ties keep run order.
  const weight = (c: RootCause) => c.checks.length + c.blocked.length;
  return causes.map((c, i) => [c, i] as const).sort(([a, i], [b, j]) => weight(b) - weight(a) || i - j).map(([c]) => c);
}

/**
 * Rule verdicts with blocked and warned checks taken into account (after ruleVerdicts): a rule whose
 * operation failed as a prerequisite fails with that as its reason (it is the root cause); a rule whose
 * covering checks were all blocked (none passed) is blocked, not skipped, so it reads as "not observed
 * because"; a passing rule whose check warned says so in its reason.
 */
export function withOutcomes(rules: RuleVerdict[], results: CheckResult[]): RuleVerdict[] {
  const blocked = results.filter((r) => r.verdict === 'blocked' && r.blocked);
  const warned = new Map(results.filter((r) => r.warnings?.length).map((r) => [r.checkId, r]));
  if (!blocked.length && !warned.size) return rules;
  const byCheck = new Map(blocked.map((r) => [r.checkId, r]));
  return rules.map((rule) => {
    if (rule.verdict === 'pass') {
      const w = rule.checks.map((id) => warned.get(id)).find((r) => r !== undefined);
      return w && !rule.reason ? { ...rule, reason: `passed with a warning (${w.checkId}): ${w.warnings![0]}` } : rule;
    }
    if (rule.verdict === 'fail' || rule.verdict === 'untestable') return rule;
    const blocking = blocked.filter((r) => r.blocked!.rules.includes(rule.id));
    if (blocking.length) {
      const first = blocking[0].blocked!;
      const n = blocking.length;
      const ids = blocking.map((r) => r.checkId).join(', ');
      return { ...rule, verdict: 'fail', reason: `${first.operation} failed as a prerequisite of ${n} check${n === 1 ? '' : 's'} (${ids}): ${first.message}` };
    }
    if (rule.verdict !== 'skip') return rule;
    const mine = rule.checks.map((id) => byCheck.get(id)).find((r) => r !== undefined);
    if (!mine) return rule;
    // Naming no rule, the block's cause is outside the target's rules (a profile setting, an unread answer, the control adapter): say it.
    const b = mine.blocked!;
    if (b.adapter) return { ...rule, verdict: 'blocked', reason: `${mine.checkId}: blocked by a control adapter error: ${b.message}` };
    return { ...rule, verdict: 'blocked', reason: `${mine.checkId}: blocked by ${b.operation}${b.rules.length ? ` (${b.rules.join(', ')})` : `: ${b.message}`}` };
  });
}

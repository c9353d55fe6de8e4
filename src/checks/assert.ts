// Assertion helpers for check bodies. Each throws CheckFailure with a message that says what the
// spec wants and what the target sent, and the rule ids the assertion is about.

import type { FieldComparison } from '../events/index.ts';
import type { ResponseOf } from '../generated/responses.ts';
import type { ErrorRule, ErrorRuleId, Model, OperationId, RuleId } from '../model/types.ts';
import { arrayOf, field, isRecord } from './body.ts';
import { currentContext } from './current.ts';
import { PrerequisiteFailed, type StepOperation } from './prerequisite.ts';
import { CheckFailure, SkipSignal } from './signals.ts';
import type { HttpResponse } from './types.ts';

export { CheckFailure, SkipSignal, isCheckFailure, isSkipSignal, type CheckFailureOptions } from './signals.ts';

const SHOW = 300;
function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > SHOW ? `${text.slice(0, SHOW)}…` : text;
}

function bodySnippet(res: HttpResponse): string {
  const text = res.text ?? '';
  return text.length > SHOW ? `${text.slice(0, SHOW)}…` : text;
}

/** Fails unless `condition`; `rules` default to all of the check's rules. */
export function check(condition: unknown, message: string, opts: { rules?: RuleId[]; response?: HttpResponse } = {}): asserts condition {
  if (!condition) throw new CheckFailure(message, opts);
}

export function fail(message: string, opts: { rules?: RuleId[]; response?: HttpResponse } = {}): never {
  throw new CheckFailure(message, opts);
}

export function is2xx(res: HttpResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

/** Success may be any 2xx (200 or 201 are both readings the spec allows). */
export function expect2xx(res: HttpResponse, what: string, rules?: RuleId[]): void {
  if (!is2xx(res)) throw new CheckFailure(`${what}: expected a 2xx answer, got HTTP ${res.status}: ${bodySnippet(res)}`, { rules, response: res });
}

/**
 * A prerequisite step (mint a token, create a user, read what the step under test needs) must
 * succeed before the check can test its rule. Its failure is PrerequisiteFailed on `operation`, so
 * the runner reports the check as blocked by that operation (or as its own failure when the check is
 * about that operation), never as a failure of the rule under test.
 */
export function expectStep(res: HttpResponse, operation: StepOperation, what: string): void {
  if (!is2xx(res)) throw new PrerequisiteFailed(operation, `${what}: expected a 2xx answer, got HTTP ${res.status}: ${bodySnippet(res)}`, { response: res });
}

/** Fails as a prerequisite step on `operation` (see expectStep) unless `condition`. */
export function checkStep(condition: unknown, operation: StepOperation, message: string, response?: HttpResponse): asserts condition {
  if (!condition) throw new PrerequisiteFailed(operation, message, { response });
}

export function expectNot2xx(res: HttpResponse, what: string, rules?: RuleId[]): void {
  if (is2xx(res)) throw new CheckFailure(`${what}: expected a refusal, got HTTP ${res.status}: ${bodySnippet(res)}`, { rules, response: res });
}

/** Fails unless the status is `expected` (or one of them). */
export function expectStatus(res: HttpResponse, expected: number | number[], rules?: RuleId[]): void {
  const list = Array.isArray(expected) ? expected : [expected];
  if (!list.includes(res.status)) {
    const comparison = [{ field: 'status', expected: list.join(' or '), actual: String(res.status), differs: true }];
    throw new CheckFailure(`expected HTTP ${list.join(' or ')}, got ${res.status}: ${bodySnippet(res)}`, { rules, response: res, comparison });
  }
}

/** True when a Content-Type names JSON (`application/json`, parameters such as charset allowed). */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  return value.split(';')[0].trim().toLowerCase() === 'application/json';
}

/**
 * Fails unless the response is the section 7 error the rule describes: status, error_reason,
 * error_description (null in the model = any), error_category.category and http_status_code equal
 * to the HTTP status, and the error_details values the rule names (any key, since the spec gives
 * the key only as an example).
 */
export function expectErrorRule(res: HttpResponse, rule: ErrorRule): void {
  const rules = [rule.id];
  const fails: string[] = [];
  // Field by field, for reports: the row's values beside the target's (null in the model = any).
  const comparison: FieldComparison[] = [];
  const row = (field: string, expected: string, actual: string, differs: boolean) => comparison.push({ field, expected, actual, differs });
  if (res.status !== rule.status) fails.push(`status ${res.status}, expected ${rule.status}`);
  row('status', String(rule.status), String(res.status), res.status !== rule.status);
  const body = res.json;
  if (!isRecord(body)) {
    fails.push(`body is not a JSON object${res.jsonError ? ` (${res.jsonError})` : ''}: ${bodySnippet(res)}`);
    row('body', 'a JSON object (section 7 error body)', bodySnippet(res), true);
    throw new CheckFailure(`${rule.id}: ${fails.join('; ')}`, { rules, response: res, comparison });
  }
  const reasonBad = rule.reason !== null && body.error_reason !== rule.reason;
  if (reasonBad) fails.push(`error_reason ${show(body.error_reason)}, expected ${show(rule.reason)}`);
  row('error_reason', rule.reason === null ? 'any' : show(rule.reason), show(body.error_reason), reasonBad);
  const messageBad = rule.message !== null && body.error_description !== rule.message;
  if (messageBad) fails.push(`error_description ${show(body.error_description)}, expected ${show(rule.message)}`);
  row('error_description', rule.message === null ? 'any' : show(rule.message), show(body.error_description), messageBad);
  const category = field(body, 'error_category', 'category');
  const statusCode = field(body, 'error_category', 'http_status_code');
  const categoryBad = rule.category !== null && category !== rule.category;
  if (categoryBad) fails.push(`error_category.category ${show(category)}, expected ${show(rule.category)}`);
  row('error_category.category', rule.category === null ? 'any' : show(rule.category), show(category), categoryBad);
  const codeBad = statusCode !== res.status;
  if (codeBad) fails.push(`error_category.http_status_code ${show(statusCode)}, expected ${res.status} (the HTTP status)`);
  row('error_category.http_status_code', `${res.status} (the HTTP status)`, show(statusCode), codeBad);
  const details: unknown[] = arrayOf(body.error_details).map((d) => field(d, 'details'));
  for (const want of rule.details ?? []) {
    const missing = !details.includes(want);
    if (missing) fails.push(`error_details has no entry with details ${show(want)} (got ${show(body.error_details)})`);
    row('error_details', `an entry with details ${show(want)}`, show(body.error_details), missing);
  }
  for (const notWant of rule.details_not ?? []) {
    const named = details.includes(notWant);
    if (named) fails.push(`error_details names ${show(notWant)}, which the spec rules out`);
    row('error_details', `no entry naming ${show(notWant)}`, show(body.error_details), named);
  }
  if (fails.length) throw new CheckFailure(`${rule.id}: ${fails.join('; ')}`, { rules, response: res, comparison });
}

/**
 * Fails unless the response is exactly the section 7 row `ruleId` of the model (status, reason,
 * message, category, details) with the section 7 body shape. A mismatch names the row and every rule
 * the caller adds (the runner keeps those the check covers).
 */
export function expectError(ctx: { model: Model }, res: HttpResponse, ruleId: ErrorRuleId, rules?: RuleId[]): void {
  const rule = ctx.model.errorRule(ruleId);
  const named = [...new Set([...(rules ?? []), ruleId])];
  try {
    expectErrorRule(res, rule);
  } catch (err) {
    if (err instanceof CheckFailure) throw new CheckFailure(err.message, { rules: named, response: res, comparison: err.comparison });
    throw err;
  }
  expectErrorShape(ctx, res, named);
}

/**
 * A refusal that a behaviour rule requires and a section 7 row answers (X-Chain-Id required / "X-Chain-Id
 * header is missing"; the SEPA paths are exclusive / "returns 400"). The two verdicts are kept apart so a
 * report, and the selftest's crediting, can tell which one broke: an answer that is no refusal at all
 * breaks `behaviour` only; a refusal with the wrong status, reason, message or body breaks `row` only.
 */
export function expectRefusedBy(ctx: { model: Model }, res: HttpResponse, row: ErrorRuleId, behaviour: RuleId, what: string): void {
  if (is2xx(res)) throw new CheckFailure(`${what}: accepted with HTTP ${res.status}; ${behaviour} requires a refusal (${row})`, { rules: [behaviour], response: res });
  expectError(ctx, res, row);
}

/** Passes when the response is exactly one of the section 7 rows (a cause two rows share); otherwise fails naming all of them. */
export function expectOneOfErrors(ctx: { model: Model }, res: HttpResponse, ruleIds: ErrorRuleId[], rules: RuleId[]): void {
  const problems: string[] = [];
  for (const id of ruleIds) {
    try {
      expectError(ctx, res, id, rules);
      return;
    } catch (err) {
      if (!(err instanceof CheckFailure)) throw err;
      problems.push(err.message);
    }
  }
  throw new CheckFailure(`the answer is none of ${ruleIds.join(', ')}: ${problems.join(' | ')}`, { rules, response: res });
}

/** Fails unless the body has the section 7 error shape and its category matches the HTTP status. */
export function expectErrorShape(ctx: { model: Model }, res: HttpResponse, rules?: RuleId[]): void {
  const validate = ctx.model.errorBodyValidator;
  if (!validate(res.json)) {
    const problems = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new CheckFailure(`HTTP ${res.status}: error body does not have the section 7 shape: ${problems}: ${bodySnippet(res)}`, { rules: withRule(rules, 'ERR-BODY-SHAPE'), response: res });
  }
  const cat = (res.json as { error_category: { category: unknown; http_status_code: unknown } }).error_category;
  if (cat.http_status_code !== res.status) {
    throw new CheckFailure(`error_category.http_status_code ${show(cat.http_status_code)} differs from the HTTP status ${res.status}`, { rules: withRule(rules, 'ERR-CATEGORY-STATUS'), response: res });
  }
  const want = ctx.model.categoryFor(res.status);
  if (want !== null && cat.category !== want) {
    throw new CheckFailure(`HTTP ${res.status} carries error_category.category ${show(cat.category)}; section 7 gives ${want}`, { rules: withRule(rules, 'ERR-CATEGORY-STATUS'), response: res });
  }
}

/** The caller's rules plus the rule the failed part of an assertion is about (the runner keeps those the check covers). */
function withRule(rules: RuleId[] | undefined, rule: RuleId): RuleId[] {
  return [...new Set([...(rules ?? []), rule])];
}

function modelOrCurrent(model: Model | undefined): Model {
  const m = model ?? currentContext()?.model;
  if (!m) throw new Error('expectSchema needs a model: pass it, or call inside a running check');
  return m;
}

/**
 * Fails unless the response is a success (2xx) whose body validates against the operation's schema for
 * its status (`op:status`, then `op:2XX` style, then `op:default`) and is served as application/json.
 * Narrows the body to the operation's generated 2xx type, so the check reads typed fields after it.
 * An error answer is judged by expectError / expectErrorShape instead.
 */
export function expectSchema<Op extends OperationId>(res: HttpResponse, op: Op, model?: Model, rules?: RuleId[]): asserts res is HttpResponse<ResponseOf<Op>> {
  const m = modelOrCurrent(model);
  if (!is2xx(res)) throw new CheckFailure(`${op}: expected a 2xx answer to validate against its success schema, got HTTP ${res.status}: ${bodySnippet(res)}`, { rules, response: res });
  const ct = res.headers['content-type'];
  if (!isJsonContentType(ct)) {
    const comparison = [{ field: 'content-type', expected: 'application/json', actual: ct ?? '(none)', differs: true }];
    throw new CheckFailure(`${op}: Content-Type ${show(ct ?? '(none)')}, expected application/json`, { rules: rules ?? ['ENDPOINT-RESPONSE-SCHEMA'], response: res, comparison });
  }
  const keys = [`${op}:${res.status}`, `${op}:${String(res.status)[0]}XX`, `${op}:default`];
  const key = keys.find((k) => m.validator(k));
  if (!key) throw new CheckFailure(`${op}: HTTP ${res.status} is not a documented response (no schema for ${keys.join(', ')})`, { rules, response: res });
  if (res.json === undefined) throw new CheckFailure(`${op}: body is not JSON (${res.jsonError ?? 'empty'}): ${bodySnippet(res)}`, { rules: rules ?? ['GENERAL-TRANSPORT-JSON'], response: res });
  const validate = m.validator(key)!;
  if (!validate(res.json)) {
    const errors = (validate.errors ?? []).slice(0, 3);
    const problems = errors.map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
    // For reports: the schema's demand beside the value found at that place in the body.
    const comparison = errors.map((e) => ({ field: `body${e.instancePath || ''}`, expected: e.message ?? 'valid', actual: show(atPointer(res.json, e.instancePath)), differs: true }));
    throw new CheckFailure(`${op}: body does not match the ${key} schema: ${problems.join('; ')}`, { rules: rules ?? ['ENDPOINT-RESPONSE-SCHEMA'], response: res, comparison });
  }
}

/** The value at a JSON pointer (ajv's instancePath), or undefined. */
function atPointer(doc: unknown, pointer: string): unknown {
  let cur: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

/** Throws SkipSignal; for helpers outside a check context. */
export function skip(reason: string): never {
  throw new SkipSignal(reason);
}

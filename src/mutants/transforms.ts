// Response transforms for mutant variants: small combinators over the reference's OutgoingResponse
// (status, headers, JSON body of one response). A variant composes them in its `options.transform`.

import type { ErrorRuleId, OperationId } from '../model/types.ts';
import type { OutgoingResponse, ResponseTransform, TransformRequest } from '../reference/index.ts';
import { categoryOf, withCategories } from './categories.ts';
import { asRecord, isObject, parseJson, type Json, type JsonObject, type JsonPrimitive } from './json.ts';
import { isIn } from './ops.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export { categoryOf, withCategories } from './categories.ts';

export const is2xx = (status: number) => status >= 200 && status < 300;

export { asRecord, field, has, isObject, items, parseJson as parse, type Json, type JsonObject } from './json.ts';

/** Operations the transform applies to (undefined = any). */
export type Ops = readonly OperationId[] | undefined;
const inOps = (ops: Ops, req: { operationId?: string }) => ops === undefined || isIn(ops, req.operationId);

/** Edits a parsed body in place (returning nothing) or returns the body to send instead. */
export type Edit<B extends Json = Json> = (body: B, res: OutgoingResponse, req: TransformRequest) => Json | void;

/** Rewrites the bodies `narrow` accepts (it returns the body, typed, or undefined) of the responses `when` selects. */
function rewriteBody<B extends Json>(narrow: (body: Json) => B | undefined, when: (req: TransformRequest, res: OutgoingResponse, body: B) => boolean, edit: Edit<B>): ResponseTransform {
  return (req, res) => {
    const parsed = parseJson(res.body);
    const body = parsed === undefined ? undefined : narrow(parsed);
    if (body === undefined || !when(req, res, body)) return;
    const out = withCategories(req.categoryFor, () => edit(body, res, req));
    res.body = JSON.stringify(out === undefined ? body : out);
  };
}

/** Rewrites the JSON body of the responses `when` selects; `edit` mutates the body or returns a new one. */
export function rewrite(when: (req: TransformRequest, res: OutgoingResponse, body: Json) => boolean, edit: Edit): ResponseTransform {
  return rewriteBody((b) => b, when, edit);
}

/** Rewrites the JSON object bodies (every section 7 error body is one) of the responses `when` selects. */
export function rewriteObject(when: (req: TransformRequest, res: OutgoingResponse, body: JsonObject) => boolean, edit: Edit<JsonObject>): ResponseTransform {
  return rewriteBody(asRecord, when, edit);
}

/** Successful answers of `ops`. */
export const onOk = (ops: readonly OperationId[], edit: Edit) => rewrite((req, res) => is2xx(res.status) && inOps(ops, req), edit);

/** Successful answers of any operation. */
export function onOkAny(edit: Edit): ResponseTransform {
  return rewrite((_req, res) => is2xx(res.status), edit);
}

/** Error answers rendering section 7 rule `ruleId` (OutgoingResponse.ruleId, set by the reference), optionally only on `ops`. */
export const onRule = (ruleId: ErrorRuleId, edit: Edit<JsonObject>, ops?: Ops) =>
  rewriteObject((req, res) => res.ruleId === ruleId && inOps(ops, req), edit);

/** Moves an error to another HTTP status, keeping the body consistent (category and http_status_code follow). */
export function restatus(body: JsonObject, res: OutgoingResponse, status: number): void {
  res.status = status;
  body.error_category = { category: categoryOf(status), http_status_code: status };
}

/**
 * "Accepts" a request the spec says must be refused: the error rendering rule `ruleId` on `ops`
 * becomes a 200 with the last successful body this operation gave on this server (a plausible answer).
 */
export function acceptInsteadOf(ruleId: ErrorRuleId, ops: readonly OperationId[]): ResponseTransform {
  const last = new Map<string, string>();
  return (req, res) => {
    if (!inOps(ops, req)) return;
    const key = `${String(req.headers.host)}|${req.operationId}`;
    if (is2xx(res.status)) {
      last.set(key, res.body);
      return;
    }
    if (res.ruleId !== ruleId) return;
    res.status = 200;
    res.body = last.get(key) ?? '{}';
    res.headers = { 'content-type': JSON_TYPE };
    delete res.ruleId;
  };
}

/** Runs several transforms in order on the same response. */
export function chain(...ts: ResponseTransform[]): ResponseTransform {
  return async (req, res) => {
    let cur = res;
    for (const t of ts) cur = (await t(req, cur)) ?? cur;
    return cur;
  };
}

/** Applies `fn` to every object in a JSON tree (depth-first, children before parents). */
export function walk(v: Json | undefined, fn: (o: JsonObject) => void): void {
  if (Array.isArray(v)) for (const x of v) walk(x, fn);
  else if (isObject(v)) {
    for (const x of Object.values(v)) walk(x, fn);
    fn(v);
  }
}

/** Replaces every leaf (non-container value) of a JSON tree by `fn(leaf, its key)`. */
export function mapDeep(v: Json, fn: (v: JsonPrimitive, key?: string) => Json, key?: string): Json {
  if (Array.isArray(v)) return v.map((x) => mapDeep(x, fn, key));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === undefined ? x : mapDeep(x, fn, k)]));
  return fn(v, key);
}

export function reverseKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, x === undefined ? x : reverseKeys(x)]));
  return v;
}

export function reverseArrays(v: Json): Json {
  if (Array.isArray(v)) return v.map(reverseArrays).reverse();
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === undefined ? x : reverseArrays(x)]));
  return v;
}

/**
 * Validation failures outside the section 7 tables: 400 answers of the token endpoint that render no
 * rule (e.g. a wrong-typed client_id). Mutating only these breaks the body-shape/category rules
 * without touching any row.
 */
export function onNonRowTokenError(edit: Edit<JsonObject>): ResponseTransform {
  return rewriteObject((req, res, body) => req.operationId === 'createToken' && res.status === 400 && res.ruleId === undefined && typeof body.error_description === 'string', edit);
}

export function errorBody(status: number, reason: string, message: string, field?: string) {
  return {
    error_reason: reason,
    error_description: message,
    error_category: { category: categoryOf(status), http_status_code: status },
    error_details: field ? [{ key: 'field', details: field }] : [],
  };
}

/** Every `n`th request (per server) matching `when` answers 429 with Retry-After `after`. */
export function every429(n: number, when: (req: TransformRequest) => boolean, after: () => string) {
  const counts = new Map<string, number>();
  return (req: TransformRequest, res: OutgoingResponse) => {
    if (!when(req) || res.status === 429) return;
    const key = String(req.headers.host);
    const c = (counts.get(key) ?? 0) + 1;
    counts.set(key, c);
    if (c % n !== 0) return;
    // errorBody reads the section 7 category from the model in scope (categories.ts): put it there.
    return { status: 429, headers: { 'content-type': JSON_TYPE, 'retry-after': after() }, body: JSON.stringify(withCategories(req.categoryFor, () => errorBody(429, 'ErrorRateLimited', 'Too many requests'))) };
  };
}

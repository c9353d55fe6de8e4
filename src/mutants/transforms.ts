// Response transforms for mutant variants: small combinators over the reference's OutgoingResponse
// (status, headers, JSON body of one response). A variant composes them in its `options.transform`.

import type { ErrorRuleId, OperationId } from '../model/types.ts';
import type { OutgoingResponse, ResponseTransform, TransformRequest } from '../reference/index.ts';
import { categoryOf, withCategories } from './categories.ts';
import { isIn } from './ops.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export { categoryOf, withCategories } from './categories.ts';

export const is2xx = (status: number) => status >= 200 && status < 300;

export function parse(text: string): any {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Operations the transform applies to (undefined = any). */
export type Ops = readonly OperationId[] | undefined;
const inOps = (ops: Ops, req: { operationId?: string }) => ops === undefined || isIn(ops, req.operationId);

export type Edit = (body: any, res: OutgoingResponse, req: TransformRequest) => any;

/** Rewrites the JSON body of the responses `when` selects; `edit` mutates the body or returns a new one. */
export function rewrite(when: (req: TransformRequest, res: OutgoingResponse, body: any) => boolean, edit: Edit): ResponseTransform {
  return (req, res) => {
    const body = parse(res.body);
    if (body === undefined || !when(req, res, body)) return;
    const out = withCategories(req.categoryFor, () => edit(body, res, req));
    res.body = JSON.stringify(out === undefined ? body : out);
  };
}

/** Successful answers of `ops`. */
export const onOk = (ops: readonly OperationId[], edit: Edit) => rewrite((req, res) => is2xx(res.status) && inOps(ops, req), edit);

/** Successful answers of any operation. */
export function onOkAny(edit: Edit): ResponseTransform {
  return rewrite((_req, res) => is2xx(res.status), edit);
}

/** Error answers rendering section 7 rule `ruleId` (OutgoingResponse.ruleId, set by the reference), optionally only on `ops`. */
export const onRule = (ruleId: ErrorRuleId, edit: Edit, ops?: Ops) =>
  rewrite((req, res) => res.ruleId === ruleId && inOps(ops, req), edit);

/** Moves an error to another HTTP status, keeping the body consistent (category and http_status_code follow). */
export function restatus(body: any, res: OutgoingResponse, status: number): void {
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
export function walk(v: any, fn: (o: Record<string, any>) => void): void {
  if (Array.isArray(v)) for (const x of v) walk(x, fn);
  else if (isObject(v)) {
    for (const x of Object.values(v)) walk(x, fn);
    fn(v);
  }
}

export function mapDeep(v: any, fn: (v: any, key?: string) => any, key?: string): any {
  if (Array.isArray(v)) return v.map((x) => mapDeep(x, fn, key));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapDeep(x, fn, k)]));
  return fn(v, key);
}

export function reverseKeys(v: any): any {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]));
  return v;
}

export function reverseArrays(v: any): any {
  if (Array.isArray(v)) return v.map(reverseArrays).reverse();
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reverseArrays(x)]));
  return v;
}

/**
 * Validation failures outside the section 7 tables: 400 answers of the token endpoint that render no
 * rule (e.g. a wrong-typed client_id). Mutating only these breaks the body-shape/category rules
 * without touching any row.
 */
export function onNonRowTokenError(edit: Edit): ResponseTransform {
  return rewrite((req, res, body) => req.operationId === 'createToken' && res.status === 400 && res.ruleId === undefined && isObject(body) && typeof body.error_description === 'string', edit);
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

// What real stacks do where the spec is silent (issue 31): the defaults of FastAPI/Pydantic,
// Spring/Jackson, Express and ASP.NET on questions the spec leaves open, each as a benign variant
// that must stay clean, with a faulty twin showing the relaxation hides no fault it could.
// The readings they rest on: ENDPOINT-RESPONSE-SCHEMA null-when-optional, ERR-BODY-SHAPE
// framework-routes, no-row-status and unnamed-reason (spec/rules).

import { proxyJson } from '../proxy-edits.ts';
import type { OutgoingResponse, TransformRequest } from '../../reference/index.ts';
import { chain, field, is2xx, isObject, items, onNonRowTokenError, onOk, restatus, rewriteObject, type Json, type JsonObject } from '../transforms.ts';
import { benign, faulty, op, type VariantSpec } from '../variant.ts';

/** Writes null for each of `keys` the object leaves out, as a serializer of a declared model does (Pydantic, Jackson ALWAYS). */
function nullFor(o: Json | undefined, keys: readonly string[]): void {
  if (!isObject(o)) return;
  for (const k of keys) if (o[k] === undefined) o[k] = null;
}

/** The payment details of a recipient answer: one object or an array of them (section 2). */
const paymentDetails = (b: Json | undefined): Json[] => {
  const pd = field(b, 'payment_details');
  return Array.isArray(pd) ? pd : pd === undefined ? [] : [pd];
};

/**
 * The rows section 7 gives without a reason or message (spec/rules/errors.yaml `reason: null`), with
 * what another stack answers there. stacks.test.ts holds this list to the model.
 */
export const UNNAMED_REASON_ROWS: Readonly<Record<string, { reason: string; message: string }>> = {
  'ERR-RATE-LIMITED': { reason: 'ErrorRateLimitExceeded', message: 'Rate limit exceeded, retry later' },
  'ERR-SEPA-WRONG-PATH': { reason: 'ErrorInvalidState', message: 'Account activation is not allowed in the current state' },
  'ERR-CHAIN-NOT-NUMERIC': { reason: 'ErrorValidation', message: 'chain_id must be a numeric string' },
  'ERR-ALIAS-MISMATCH': { reason: 'ErrorValidation', message: 'Conflicting values for a renamed field' },
};

/**
 * FastAPI/Starlette on a route it does not have: 404 {"detail":"Not Found"}, 405 {"detail":"Method Not
 * Allowed"} with Allow, and a path with a trailing slash redirected (307, empty body) to the path without.
 */
function fastApiRoutes(req: TransformRequest, res: OutgoingResponse): OutgoingResponse | void {
  if (req.operationId !== undefined || (res.status !== 404 && res.status !== 405)) return;
  if (req.path.length > 1 && req.path.endsWith('/')) return { status: 307, headers: { location: req.path.slice(0, -1) }, body: '' };
  const allow = res.headers.allow;
  return { status: res.status, headers: { 'content-type': 'application/json', ...(allow ? { allow } : {}) }, body: JSON.stringify({ detail: res.status === 404 ? 'Not Found' : 'Method Not Allowed' }) };
}

export function stacksVariants(): VariantSpec[] {
  return [
    // Reading null-when-optional: a declared model writes every field it lists, null where unset.
    benign('benign.nulls.declared-model', `answers write null for the fields their schema lists and they leave out (Pydantic, Jackson): recipient_address and address on ${op('createRecipientV2')} and on its Card payment details (sepa too), card status and card_data, wallet balances in ${op('listWallets')}, error_details of an error with none`, {
      transform: chain(
        onOk(['createVirtualCard'], (b) => nullFor(b, ['status', 'card_data'])),
        onOk(['listCards'], (b) => {
          for (const c of items(field(b, 'data'))) nullFor(c, ['status']);
        }),
        onOk(['listWallets'], (b) => {
          for (const w of Array.isArray(b) ? b : items(field(b, 'data'))) if (isObject(w) && Array.isArray(w.balances) && w.balances.length === 0) w.balances = null;
        }),
        onOk(['list3dsRequests'], (b) => {
          for (const c of Array.isArray(b) ? b : items(field(b, 'data'))) nullFor(c, ['transaction_id']);
        }),
        rewriteObject((_req, res, b) => res.status >= 400 && typeof b.error_reason === 'string' && (b.error_details === undefined || (Array.isArray(b.error_details) && b.error_details.length === 0)), (b) => void (b.error_details = null)),
      ),
    }, {
      // The recipient's crypto-details pair, named by the model.
      response(req, res, ctx) {
        if (req.operationId !== 'createRecipientV2' || !is2xx(res.status) || !isObject(res.json)) return;
        const { old, new: preferred } = ctx.model.aliasRule('ALIAS-RECIPIENT-ADDRESS');
        const body = res.json as JsonObject;
        nullFor(body, [preferred, old]);
        for (const pd of paymentDetails(body)) nullFor(pd, field(pd, 'type') === 'Sepa' ? [preferred, old] : ['sepa', preferred, old]);
        return proxyJson(res, body);
      },
    }),
    benign('benign.nulls.user-read-email', `user reads (${op('getUserV1')}, ${op('getUserV2')}, retail validate) carry email and country as null (x-checked-when-present: null is not carried)`, {
      transform: onOk(['getUserV1', 'getUserV2', 'validateRetailUser'], (b) => {
        if (!isObject(b)) return;
        b.email = null;
        b.country = null;
      }),
    }),
    // Its faulty twins: null where the answer requires a value, and an alias pair of a value and a null.
    faulty('schema.wallet.balances-null', 'ENDPOINT-RESPONSE-SCHEMA', `${op('getWallet')} answers balances: null (the wallet with balances requires them)`, {
      transform: onOk(['getWallet'], (b) => void (isObject(b) && (b.balances = null))),
    }),
    faulty('alias.recipient.address-null', 'ALIAS-RECIPIENT-ADDRESS', 'recipient crypto details carry recipient_address with a value and the deprecated address as null', {}, {
      response(req, res, ctx) {
        if (req.operationId !== 'createRecipientV2' || !is2xx(res.status) || !isObject(res.json)) return;
        const { old, new: preferred } = ctx.model.aliasRule('ALIAS-RECIPIENT-ADDRESS');
        const body = res.json as JsonObject;
        let changed = false;
        for (const o of [body, ...paymentDetails(body)]) {
          if (isObject(o) && typeof o[preferred] === 'string') {
            o[old] = null;
            changed = true;
          }
        }
        return changed ? proxyJson(res, body) : undefined;
      },
    }),

    // Reading framework-routes: the framework's own answers on routes the spec does not document.
    benign('benign.routes.fastapi', 'routes the target does not have answer as FastAPI does: 404 {"detail":"Not Found"}, 405 {"detail":"Method Not Allowed"}, and a path with a trailing slash 307 to the path without', { transform: fastApiRoutes }),
    benign('benign.routes.express', 'routes the target does not have answer as Express does: 404 text/html "Cannot GET /x"; a method the path does not take: an empty 405 (ASP.NET)', {
      transform: (req: TransformRequest, res: OutgoingResponse): OutgoingResponse | void => {
        if (req.operationId !== undefined) return;
        if (res.status === 404) return { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!DOCTYPE html><html><body><pre>Cannot ${req.method} ${req.path}</pre></body></html>` };
        if (res.status === 405) return { status: 405, headers: {} as Record<string, string>, body: '' };
      },
    }),

    benign('benign.routes.spring', 'routes the target does not have answer with Spring Boot\'s whitelabel JSON {timestamp, status, error, path} (404 Not Found, 405 Method Not Allowed)', {
      transform: (req: TransformRequest, res: OutgoingResponse): OutgoingResponse | void => {
        if (req.operationId !== undefined || (res.status !== 404 && res.status !== 405)) return;
        const error = res.status === 404 ? 'Not Found' : 'Method Not Allowed';
        return { status: res.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ timestamp: new Date().toISOString(), status: res.status, error, path: req.path }) };
      },
    }),

    // Reading unnamed-reason: where section 7 fixes a status but no reason, another stack's reason.
    benign('benign.errors.unnamed-reasons', 'the rows section 7 gives without a reason answer other reasons and wording: 429 ErrorRateLimitExceeded, the wrong SEPA path ErrorInvalidState, a non-numeric chain and an alias mismatch ErrorValidation (details kept)', {
      transform: rewriteObject((_req, res) => res.ruleId !== undefined && Object.hasOwn(UNNAMED_REASON_ROWS, res.ruleId), (b, res) => {
        const other = UNNAMED_REASON_ROWS[res.ruleId!];
        b.error_reason = other.reason;
        b.error_description = other.message;
      }),
    }),
    // Reading no-row-status: Pydantic's 422 where no row applies (a wrong-typed token field), with the section 7 body.
    benign('benign.errors.422-no-row', `${op('createToken')} answers a field of the wrong JSON type with 422 and the section 7 body (no row applies; section 7 gives no category for 422)`, {
      transform: onNonRowTokenError((b, res) => restatus(b, res, 422)),
    }),
    // Its faulty twin: 422 where the row fixes 400 ("client id is required").
    faulty('token.client-id-missing.422', 'ERR-TOKEN-CLIENT-ID-MISSING', `${op('createToken')} answers a missing client_id with 422 (Pydantic's default) instead of the row's 400`, {
      transform: rewriteObject((_req, res) => res.ruleId === 'ERR-TOKEN-CLIENT-ID-MISSING', (b, res) => restatus(b, res, 422)),
    }),
  ];
}

import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { auditAnswer, auditResponses } from './audit.ts';
import type { HttpResponse } from './types.ts';

const ajv = new Ajv();
const errorBody = ajv.compile({
  type: 'object',
  required: ['error_reason', 'error_description', 'error_category'],
  properties: { error_category: { type: 'object', required: ['category', 'http_status_code'] } },
});
const validators: Record<string, any> = { 'getThing:2XX': ajv.compile({ type: 'object', required: ['id'] }) };
const model = {
  operations: new Map([
    ['getThing', { operationId: 'getThing', method: 'get', path: '/thing', server: 'api', pathUnspecified: false }],
    ['tokenize', { operationId: 'tokenize', method: 'post', path: '/oct', server: 'pci', pathUnspecified: false }],
  ]),
  validator: (k: string) => validators[k],
  errorBodyValidator: errorBody,
  categoryFor: (s: number) => ({ 400: 'CategoryValidationFailure', 401: 'CategoryUnauthorized', 429: 'CategoryTransientFailure', 500: 'CategoryInternalFailure' })[s] ?? null,
} as unknown as Model;

const res = (status: number, json: unknown, ct = 'application/json'): HttpResponse => ({ status, headers: { 'content-type': ct }, text: json === undefined ? '' : JSON.stringify(json), json, durationMs: 1 });
const err = (status: number, category: string, code = status) => res(status, { error_reason: 'E', error_description: 'd', error_category: { category, http_status_code: code } });

describe('auditResponses', () => {
  it('passes conforming answers, empty success bodies, other servers and statuses outside the category table', () => {
    expect(auditResponses(model, [
      { op: 'getThing', res: res(200, { id: 'a' }) },
      { op: 'getThing', res: res(204, undefined, '') },
      { op: 'getThing', res: err(400, 'CategoryValidationFailure') },
      { op: 'getThing', res: res(404, undefined, 'text/html') },
      { op: 'tokenize', res: res(200, { nothing: true }) },
      { op: 'unknownOp', res: res(500, 'oops') },
    ])).toBeUndefined();
  });

  it('names the broken rule for one bad answer among good ones (an intermittent fault)', () => {
    const good = { op: 'getThing', res: err(401, 'CategoryUnauthorized') };
    const cases: [HttpResponse, string][] = [
      [err(401, 'CategoryValidationFailure'), 'ERR-CATEGORY-STATUS'],
      [err(400, 'CategoryValidationFailure', 422), 'ERR-CATEGORY-STATUS'],
      [res(500, { message: 'boom' }), 'ERR-BODY-SHAPE'],
      [res(200, { name: 'no id' }), 'ENDPOINT-RESPONSE-SCHEMA'],
      [res(200, { id: 'a' }, 'text/plain'), 'ENDPOINT-RESPONSE-SCHEMA'],
      [{ ...res(200, undefined), text: '<html>' }, 'GENERAL-TRANSPORT-JSON'],
      // A 200 with no body where the schema shows fields (204, or a schema that shows nothing, stays clean).
      [res(200, undefined), 'ENDPOINT-RESPONSE-SCHEMA'],
    ];
    for (const [bad, rule] of cases) {
      const f = auditResponses(model, [good, good, { op: 'getThing', res: bad }, good]);
      expect(f?.rules, rule).toEqual([rule]);
      expect(f?.message).toContain('getThing (GET /thing)');
    }
  });

  it('holds a Card recipient answer with null crypto details to the model under null-when-optional, and a null id still fails', async () => {
    const real = await loadModel();
    const pydantic = { id: 'r1', personal_info: { first_name: 'A', last_name: 'B' }, recipient_address: null, address: null, payment_details: [{ id: 'p1', type: 'Card', currencies: ['EUR'], sepa: null, recipient_address: null, address: null }] };
    expect(auditResponses(real, [{ op: 'createRecipientV2', res: res(200, pydantic) }])).toBeUndefined();
    const f = auditResponses(real, [{ op: 'createRecipientV2', res: res(200, { ...pydantic, payment_details: [{ ...pydantic.payment_details[0], id: null }] }) }]);
    expect(f?.rules).toEqual(['ENDPOINT-RESPONSE-SCHEMA']);
    expect(f?.message).toMatch(/createRecipientV2 \(POST \/api\/v2\/recipients\).*\/payment_details\/0\/id must not be null/);
  });

  it('reads the model\'s x-checked-when-present: a user read without them passes, without a listed field it fails', async () => {
    const real = await loadModel();
    const user = { id: '0b6b3c8e-5d7e-4a53-9d0e-5f4f3b1f1a11', user_id: '0b6b3c8e-5d7e-4a53-9d0e-5f4f3b1f1a11', user_address: '0xabc', wallet_address: '0xabc' };
    for (const op of ['getUserV1', 'validateRetailUser'] as const) {
      expect(real.whenPresent(op)).toEqual(expect.arrayContaining(['email', 'country']));
      expect(auditResponses(real, [{ op, res: res(200, user) }])).toBeUndefined();
      const { user_address: _a, ...without } = user;
      expect(auditResponses(real, [{ op, res: res(200, without) }])?.rules).toEqual(['ENDPOINT-RESPONSE-SCHEMA']);
    }
  });
});

describe('auditAnswer: the section 9.2 naming convention on every success answer', () => {
  it('names VERSION-FIELD-NAMING for a convention name renamed where the schema leaves fields open; a twin beside the name is no finding', async () => {
    const real = await loadModel();
    const item = { id: 'a-1', type: 'CardTransaction', direction: 'Outbound' };
    const found = auditAnswer(real, 'getActivity', res(200, { ...item, userAddress: '0xabc' }));
    expect(found?.rule).toBe('VERSION-FIELD-NAMING');
    expect(found?.detail).toMatch(/userAddress is user_address spelled another way/);
    expect(auditAnswer(real, 'getActivity', res(200, { ...item, user_address: '0xabc', userAddress: '0xabc' }))).toBeUndefined();
    expect(auditAnswer(real, 'getActivity', res(200, { ...item, user_address: '0xabc', caseNumber: 'x' }))).toBeUndefined();
  });
});

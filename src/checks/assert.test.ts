import { Ajv } from 'ajv';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Token } from '../generated/api-types.ts';
import type { ErrorRule, ErrorRuleId, Model } from '../model/types.ts';
import { CheckFailure, expectErrorRule, expectRefusedBy, expectSchema, expectStatus, isJsonContentType } from './assert.ts';
import type { HttpResponse } from './types.ts';

const rule: ErrorRule = {
  id: 'ERR-X' as ErrorRuleId, // synthetic row: the assertion must not depend on the project's spec
  kind: 'error',
  section: '7',
  summary: 's',
  operations: [],
  testable: true,
  source: { file: 'rules/errors.yaml', pointer: '' },
  table: 'other',
  status: 400,
  reason: 'ErrorInvalidField',
  message: null,
  category: 'CategoryValidationFailure',
  cause: 'c',
  details: ['chain_id'],
  details_not: ['chain'],
};

function res(status: number, json: any, ct = 'application/json; charset=utf-8'): HttpResponse {
  return { status, headers: { 'content-type': ct }, text: JSON.stringify(json), json, durationMs: 1 };
}

const good = {
  error_reason: 'ErrorInvalidField',
  error_description: 'anything goes: the model has no message',
  error_category: { category: 'CategoryValidationFailure', http_status_code: 400 },
  error_details: [{ key: 'whatever', details: 'chain_id' }],
};

function failure(fn: () => void): CheckFailure {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CheckFailure);
    return err as CheckFailure;
  }
  throw new Error('expected CheckFailure');
}

describe('expectErrorRule', () => {
  it('accepts the section 7 body the rule describes (null message = any, details under any key)', () => {
    expectErrorRule(res(400, good), rule);
  });
  it('names every mismatch and the rule', () => {
    const f = failure(() =>
      expectErrorRule(
        res(401, { ...good, error_reason: 'ErrorMissingField', error_category: { category: 'CategoryValidationFailure', http_status_code: 400 }, error_details: [{ key: 'field', details: 'chain' }] }),
        rule,
      ),
    );
    expect(f.rules).toEqual(['ERR-X']);
    expect(f.message).toContain('status 401, expected 400');
    expect(f.message).toContain('error_reason "ErrorMissingField"');
    expect(f.message).toContain('http_status_code 400, expected 401');
    expect(f.message).toContain('no entry with details "chain_id"');
    expect(f.message).toContain('names "chain"');
  });
  it('gives expected and actual field by field; only the broken fields differ', () => {
    const f = failure(() => expectErrorRule(res(400, { ...good, error_description: 'other text', error_reason: 'ErrorNotFound' }), rule));
    const byField = Object.fromEntries((f.comparison ?? []).map((c) => [c.field, c]));
    expect(byField.status).toEqual({ field: 'status', expected: '400', actual: '400', differs: false });
    expect(byField.error_reason).toEqual({ field: 'error_reason', expected: '"ErrorInvalidField"', actual: '"ErrorNotFound"', differs: true });
    // The model shows no message for this row: any is accepted, so it never differs.
    expect(byField.error_description).toMatchObject({ expected: 'any', actual: '"other text"', differs: false });
    expect((f.comparison ?? []).filter((c) => c.differs).map((c) => c.field)).toEqual(['error_reason']);
  });
  it('fails on a non-JSON body', () => {
    expect(failure(() => expectErrorRule({ status: 400, headers: {}, text: '<html>', json: undefined, jsonError: 'Unexpected token', durationMs: 1 }, rule)).message).toContain(
      'not a JSON object',
    );
  });
});

describe('expectSchema / expectStatus', () => {
  const ajv = new Ajv();
  const validators: Record<string, any> = { 'getConfig:200': ajv.compile({ type: 'object', required: ['id'], properties: { id: { type: 'string' } } }), 'getConfig:default': ajv.compile({}) };
  const model = { validator: (k: string) => validators[k] } as unknown as Model;
  it('validates a success by status, falls back to default, and requires application/json', () => {
    expectSchema(res(200, { id: 'a' }), 'getConfig', model);
    expectSchema(res(201, { anything: 1 }), 'getConfig', model);
    // An error answer is no success body: expectError / expectErrorShape judge it.
    expect(failure(() => expectSchema(res(404, { anything: 1 }), 'getConfig', model)).message).toContain('expected a 2xx answer');
    const schemaFail = failure(() => expectSchema(res(200, { id: 1 }), 'getConfig', model));
    expect(schemaFail.message).toContain('/id must be string');
    expect(schemaFail.comparison).toEqual([{ field: 'body/id', expected: 'must be string', actual: '1', differs: true }]);
    expect(failure(() => expectSchema(res(200, { id: 'a' }, 'text/html'), 'getConfig', model)).message).toContain('expected application/json');
    expect(failure(() => expectSchema(res(200, {}), 'getWallet', model)).message).toContain('not a documented response');
    expect(isJsonContentType('Application/JSON ; charset=UTF-8')).toBe(true);
    expect(isJsonContentType('application/jsonp')).toBe(false);
  });
  it('narrows the body to the operation\'s generated 2xx type (tsc checks this test)', () => {
    const tokenModel = { validator: (k: string) => (k === 'createToken:2XX' ? ajv.compile({ type: 'object' }) : undefined) } as unknown as Model;
    const answer: HttpResponse = res(200, { access_token: 'a.b.c', token_type: 'Bearer', expires_at: 1 });
    expectTypeOf(answer.json).toEqualTypeOf<unknown>();
    expectSchema(answer, 'createToken', tokenModel);
    expectTypeOf(answer.json).toEqualTypeOf<Token>();
    expect(answer.json.access_token).toBe('a.b.c');
    // @ts-expect-error a field the Token schema does not declare stays unknown (an `any` body would let this through)
    const undeclared: string = answer.json.no_such_field;
    expect(undeclared).toBeUndefined();
  });
  it('expectStatus shows the body', () => {
    expect(failure(() => expectStatus(res(500, { oops: true }), [200, 201])).message).toBe('expected HTTP 200 or 201, got 500: {"oops":true}');
    expect(failure(() => expectStatus(res(500, {}), 200)).comparison).toEqual([{ field: 'status', expected: '200', actual: '500', differs: true }]);
  });
});

describe('expectRefusedBy keeps the behaviour verdict apart from the row verdict', () => {
  const ajv = new Ajv({ strict: false });
  const ctx = {
    model: {
      errorRule: () => rule,
      categoryFor: (s: number) => (s === 400 ? 'CategoryValidationFailure' : null),
      errorBodyValidator: ajv.compile({ type: 'object', required: ['error_reason', 'error_description', 'error_category'] }),
    } as unknown as Model,
  };
  it('an accepted request names only the behaviour rule', () => {
    const f = failure(() => expectRefusedBy(ctx, res(200, { ok: true }), 'ERR-X' as ErrorRuleId, 'AUTH-CHAIN-ID-REQUIRED', 'probe'));
    expect(f.rules).toEqual(['AUTH-CHAIN-ID-REQUIRED']);
    expect(f.message).toContain('accepted with HTTP 200');
  });
  it('a refusal with the wrong row names only the row', () => {
    const f = failure(() => expectRefusedBy(ctx, res(500, { ...good, error_category: { category: 'CategoryInternalFailure', http_status_code: 500 } }), 'ERR-X' as ErrorRuleId, 'AUTH-CHAIN-ID-REQUIRED', 'probe'));
    expect(f.rules).toEqual(['ERR-X']);
  });
  it('the right row passes', () => {
    expectRefusedBy(ctx, res(400, good), 'ERR-X' as ErrorRuleId, 'AUTH-CHAIN-ID-REQUIRED', 'probe');
  });
});

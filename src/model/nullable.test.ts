import { describe, expect, it } from 'vitest';
import { loadModel } from './index.ts';
import { nullWhenOptional } from './nullable.ts';

const card = { id: 'r1', payment_details: { id: 'p1', type: 'Card', currencies: ['EUR'] } };

describe('reading null-when-optional (ENDPOINT-RESPONSE-SCHEMA) on answer schemas', () => {
  it('accepts null for a field the answer does not require, at any depth, as Pydantic and Jackson write it', async () => {
    const model = await loadModel();
    const v = model.validator('createRecipientV2:2XX')!;
    const pydantic = { ...card, recipient_address: null, address: null, personal_info: null, payment_details: { ...card.payment_details, sepa: null, recipient_address: null, address: null } };
    expect(v(pydantic), JSON.stringify(v.errors)).toBe(true);
    expect(model.errorBodyValidator({ error_reason: 'ErrorX', error_description: 'd', error_category: { category: 'CategoryValidationFailure', http_status_code: 400 }, error_details: null })).toBe(true);
    expect(model.validator('getUserV1:2XX')!({ id: 'c6c2f3a4-1d7e-4c55-9d0e-1f4a3b2c1d0e', user_id: 'c6c2f3a4-1d7e-4c55-9d0e-1f4a3b2c1d0e', user_address: '0xa', wallet_address: '0xa', email: null, country: null })).toBe(true);
  });

  it('still refuses a wrong type, and null for a field the answer requires (also where only a branch requires it)', async () => {
    const model = await loadModel();
    const v = model.validator('createRecipientV2:2XX')!;
    expect(v({ ...card, recipient_address: 5 })).toBe(false);
    expect(v.errors?.[0].message).toBe('must be string,null');
    expect(v({ ...card, payment_details: { id: null } })).toBe(false);
    expect(v.errors?.[0].message).toMatch(/must not be null/);
    // Section 2: "for Sepa, a sepa object with iban and bic" (then: required [sepa]).
    expect(v({ ...card, payment_details: { id: 'p', type: 'Sepa', sepa: null } })).toBe(false);
    // Untyped required fields (type not shown) hold a value: an id in an answer is never null.
    expect(model.validator('executeCardTransfer:2XX')!({ activity_id: null })).toBe(false);
    expect(model.validator('executeCardTransfer:2XX')!({ activity_id: 7 })).toBe(true);
    expect(model.validator('createToken:2XX')!({ access_token: null, token_type: 'Bearer', expires_at: 1_700_000_000 })).toBe(false);
    expect(model.errorBodyValidator({ error_reason: null, error_description: 'd', error_category: { category: 'c', http_status_code: 400 } })).toBe(false);
    // An enum keeps its values: null is allowed only where the field is optional.
    const item = model.validator('#/components/schemas/ActivityItem')!;
    expect(item({ type: null, direction: 'Inbound' })).toBe(false);
    expect(item({ type: 'Other', direction: 'Inbound' })).toBe(false);
  });

  it('"carries only" (additionalProperties: false) admits another field as null, as a shared serializer model writes it, never with a value', async () => {
    const model = await loadModel();
    const v = model.validator('authorizeUser:2XX')!;
    const token = { access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', expires_at: 1_700_000_000 };
    expect(v({ ...token, token_type: null }), JSON.stringify(v.errors)).toBe(true);
    expect(v({ ...token, token_type: 'Bearer' })).toBe(false);
  });

  it('reads an integer as its value, however written (reading integer-as-written): 1700000000.0 is the integer, 1700000000.5 is not', async () => {
    const model = await loadModel();
    const v = model.validator('createToken:2XX')!;
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
    expect(v(JSON.parse(`{"access_token":"${jwt}","token_type":"Bearer","expires_at":1700000000.0}`))).toBe(true);
    expect(v(JSON.parse(`{"access_token":"${jwt}","token_type":"Bearer","expires_at":1700000000.5}`))).toBe(false);
  });

  it('keeps the request schemas as they are, and leaves its input unchanged', () => {
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string', enum: ['x'] }, c: { const: 1 } } };
    const copy = JSON.parse(JSON.stringify(schema));
    const out = nullWhenOptional(schema) as { properties: Record<string, unknown> };
    expect(schema).toEqual(copy);
    expect(out.properties.a).toEqual({ type: 'string' });
    expect(out.properties.b).toEqual({ type: ['string', 'null'], enum: ['x', null] });
    expect(out.properties.c).toEqual({ anyOf: [{ type: 'null' }, { const: 1 }] });
  });

  it('does not widen inside not or if (that would narrow the schema around them)', () => {
    const schema = { not: { properties: { owner: { type: 'string' } } }, if: { properties: { t: { const: 'S' } } }, then: { required: ['s'] } };
    const out = nullWhenOptional(schema) as Record<string, unknown>;
    expect(out.not).toBe(schema.not);
    expect(out.if).toBe(schema.if);
    expect(out.then).toEqual({ required: ['s'], properties: { s: { 'x-not-null': true } } });
  });
});

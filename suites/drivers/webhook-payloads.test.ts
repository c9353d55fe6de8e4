// The section 9.2 naming judge and the card limit owner judge on payloads: every spelling the
// convention does not write fails, every key it does not name is free; owner fails only at the top.
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/model/index.ts';
import { namingFindings, namingProblems, ownerKeys } from './webhook-payloads.ts';

const facts = async () => (((await loadModel()).rule('VERSION-FIELD-NAMING') as { facts?: { names?: unknown; uuid?: unknown } }).facts);
const UUID = '0b0e5c3e-7d52-4c1e-9a6e-1f2d3c4b5a69';

describe('namingProblems', () => {
  it('accepts the names as written, nulls, extra fields in any case and any key order', async () => {
    const f = await facts();
    expect(namingProblems({ user_id: UUID, user_address: '0xabc', id: UUID, owner: '0xabc' }, f)).toEqual([]);
    expect(namingProblems({ caseNumber: 'DC-1', createdAt: 1, userAddressVerified: true, data: { wallet_address: null, destination_address: '0x1' }, user_id: UUID }, f)).toEqual([]);
    expect(namingProblems({ event: 'x', data: [{ recipient_address: 'r' }] }, f)).toEqual([]);
  });

  it('refuses a name in another case or separator at any depth, a non-string value, a user_id that is not a UUID', async () => {
    const f = await facts();
    expect(namingProblems({ userId: UUID }, f)).toEqual(['$.userId is user_id spelled another way']);
    expect(namingProblems({ data: { UserAddress: '0x1' } }, f)[0]).toMatch(/\$\.data\.UserAddress is user_address/);
    expect(namingProblems({ list: [{ 'wallet-address': '0x1' }] }, f)[0]).toMatch(/wallet_address spelled/);
    expect(namingProblems({ destinationaddress: '0x1' }, f)[0]).toMatch(/destination_address spelled/);
    expect(namingProblems({ user_id: 4711 }, f)[0]).toMatch(/not a string/);
    expect(namingProblems({ user_id: 'u-1' }, f)[0]).toMatch(/not a UUID/);
  });

  it('warns, never fails, a name spelled another way beside the name as written (an extra field)', async () => {
    const f = await facts();
    expect(namingFindings({ user_id: UUID, userId: UUID }, f)).toEqual({ problems: [], twins: ['$.userId is user_id spelled another way (beside user_id)'] });
  });

  it('needs the names from the model (never restated here)', () => {
    expect(() => namingProblems({}, undefined)).toThrow(/facts.names/);
  });
});

describe('ownerKeys', () => {
  it('tells a top-level owner (null too) from a nested one, and no owner at all', () => {
    expect(ownerKeys({ card_id: 'c', owner: '0x1' })).toEqual({ top: true, nested: [] });
    expect(ownerKeys({ card_id: 'c', owner: null }).top).toBe(true);
    expect(ownerKeys({ card: { owner: '0x1' } })).toEqual({ top: false, nested: ['$.card.owner'] });
    expect(ownerKeys({ card_id: 'c', user_id: 'u', limit: { amount: '1' } })).toEqual({ top: false, nested: [] });
  });
});

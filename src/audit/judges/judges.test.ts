import { describe, expect, it } from 'vitest';
import { loadModel } from '../../model/index.ts';
import { cardNumbersIn, JUDGES } from './index.ts';

describe('client judges', () => {
  it('every testable client rule has a judge; an untestable one has none and says why', async () => {
    const model = await loadModel();
    for (const r of model.clientRules) {
      expect(JUDGES[r.id] !== null, r.id).toBe(r.testable);
      if (!r.testable) expect(r.untestable_reason, r.id).toBeTruthy();
    }
  });

  it('finds card numbers (grouped or not, on any path) and ignores ids, addresses and millisecond timestamps', () => {
    expect(cardNumbersIn('{"card_number":"4111111111111111"}')).toEqual(['4111111111111111']);
    expect(cardNumbersIn('pan=4111 1111 1111 1111&x=1')).toEqual(['4111111111111111']);
    expect(cardNumbersIn('/b2b/cards/5500-0000-0000-0004')).toEqual(['5500000000000004']);
    expect(cardNumbersIn('4111111111111112')).toEqual([]); // Luhn fails
    expect(cardNumbersIn('{"at":1732532400004,"wallet":"0x4111111111111111111111111111111111111111"}')).toEqual([]);
    expect(cardNumbersIn('{"id":"9f1c2e1a-0000-4000-8000-411111111111"}')).toEqual([]);
    // A random id whose first three groups are digits (16 of them, Luhn-valid): an id, not a card.
    expect(cardNumbersIn('/api/v1/users/41111111-1111-4115-8abc-def012345678')).toEqual([]);
    expect(cardNumbersIn('x 4111-1111-1111-1111 y')).toEqual(['4111111111111111']);
  });
});

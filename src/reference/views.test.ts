// The serialised GET /api/v1/user answer kept per user (views.userV1Json): it is always the text of the
// view it replaces, and a change to any field the view shows is answered at once, never from the cache.

import { describe, expect, it } from 'vitest';
import { referenceModel } from './model.ts';
import { RefState } from './state/index.ts';
import { userV1, userV1Json } from './views.ts';

async function stateWithUser(faults?: string[]) {
  const st = new RefState({ model: await referenceModel(), faults: faults ? new Set(faults) : undefined });
  const company = st.store.addCompany('Company A', 'Partner');
  const u = st.addUser(company.id, 'cache@example.com', 'DE', `0x${'2'.repeat(40)}`);
  return { st, u };
}

describe('userV1Json', () => {
  it('is the view serialised, and follows every change of a field the view shows', async () => {
    const { st, u } = await stateWithUser();
    expect(userV1Json(st, u)).toBe(JSON.stringify(userV1(st, u)));
    expect(userV1Json(st, u)).toBe(JSON.stringify(userV1(st, u)));
    const changes: ['email' | 'country' | 'user_address' | 'user_id', string][] = [
      ['email', 'changed@example.com'],
      ['country', 'FR'],
      ['user_address', `0x${'3'.repeat(40)}`],
      ['user_id', 'another-id'],
    ];
    for (const [field, value] of changes) {
      u[field] = value;
      const json = JSON.parse(userV1Json(st, u)) as Record<string, unknown>;
      expect(Object.values(json)).toContain(value);
      expect(userV1Json(st, u)).toBe(JSON.stringify(userV1(st, u)));
    }
  });

  it('with the capabilities fault, a status change shows in the next answer', async () => {
    const { st, u } = await stateWithUser(['user.v1-capabilities']);
    const before = userV1Json(st, u);
    u.visaVirtualCard = `${u.visaVirtualCard}-changed`;
    expect(userV1Json(st, u)).not.toBe(before);
    expect(userV1Json(st, u)).toBe(JSON.stringify(userV1(st, u)));
  });
});

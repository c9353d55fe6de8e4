// namingFindings walks once per answer without spelling locations it does not report; it must find
// exactly what the plain walk (eachObject, a location for every object) finds, in the same order.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eachObject, namingFindings, type NamingFacts, type NamingFindings } from './naming.ts';

const FACTS: NamingFacts = { names: ['user_id', 'user_address', 'wallet_address'], uuid: ['user_id'] };
const UUID = '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60';

/** The rule as written before: every object visited with its location. */
function plain(body: unknown, facts: NamingFacts): NamingFindings {
  const names = facts.names as string[];
  const uuid = new Set(facts.uuid as string[]);
  const squash = (k: string) => k.toLowerCase().replace(/[^a-z0-9]/g, '');
  const bySquash = new Map(names.map((n) => [squash(n), n]));
  const out: NamingFindings = { problems: [], twins: [] };
  eachObject(body, (o, at) => {
    for (const [k, v] of Object.entries(o)) {
      const name = bySquash.get(squash(k));
      if (name === undefined) continue;
      if (k !== name) (Object.hasOwn(o, name) ? out.twins : out.problems).push(`${at}.${k} is ${name} spelled another way${Object.hasOwn(o, name) ? ` (beside ${name})` : ''}`);
      else if (v !== null && v !== undefined && typeof v !== 'string') out.problems.push(`${at}.${k} is ${JSON.stringify(v).slice(0, 60)}, not a string`);
      else if (typeof v === 'string' && uuid.has(k) && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) out.problems.push(`${at}.${k} ${JSON.stringify(v)} is not a UUID`);
    }
  });
  return out;
}

const key = fc.constantFrom('user_id', 'userId', 'UserID', 'user-address', 'user_address', 'walletAddress', 'wallet_address', 'id', 'data', 'items', 'x');
const leaf = fc.oneof(fc.constant(UUID), fc.constant('u-1'), fc.constant(null), fc.integer(), fc.boolean(), fc.string({ maxLength: 5 }));
const { json } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('json'), { maxLength: 3 }), fc.dictionary(key, tie('json'), { maxKeys: 4 })),
}));

describe('namingFindings', () => {
  it('finds what the plain walk finds, in the same order, with the same locations', () => {
    fc.assert(
      fc.property(json, (body) => {
        expect(namingFindings(body, FACTS)).toEqual(plain(body, FACTS));
      }),
      { numRuns: 500, seed: 32 },
    );
  });

  it('locates a finding deep in arrays and objects; the same facts object twice judges alike', () => {
    const body = { items: [{ data: { userId: UUID } }, { user_id: 'u-1', user_address: 7 }] };
    const want = ['$.items[0].data.userId is user_id spelled another way', '$.items[1].user_id "u-1" is not a UUID', '$.items[1].user_address is 7, not a string'];
    expect(namingFindings(body, FACTS).problems).toEqual(want);
    expect(namingFindings(body, FACTS).problems).toEqual(want);
  });

  it('stops at the depth bound as the plain walk does', () => {
    let deep: unknown = { userId: UUID };
    for (let i = 0; i < 40; i++) deep = { data: deep };
    expect(namingFindings(deep, FACTS)).toEqual(plain(deep, FACTS));
    expect(namingFindings(deep, FACTS).problems).toEqual([]);
  });
});

// The compiled naming check (the audit of every answer, at load speed) says exactly what namingProblems
// says, on the payloads that keep the convention and on every way of breaking it, at any depth.
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import { seededRandom } from '../runner/seed.ts';
import { namingCheck, namingFactsOf, namingProblems } from './naming.ts';

const UUID = '0b0e5c3e-7d52-4c1e-9a6e-1f2d3c4b5a69';

describe('namingCheck', () => {
  it('agrees with namingProblems on clean payloads, renamed fields, twins, wrong types and non-UUID ids', async () => {
    const facts = namingFactsOf(await loadModel());
    const check = namingCheck(facts);
    const cases: unknown[] = [
      { user_id: UUID, user_address: '0xabc', id: UUID },
      { userId: UUID },
      { data: [{ 'wallet-address': '0x1' }] },
      { user_id: UUID, userId: UUID },
      { user_id: 4711 },
      { user_id: 'u-1' },
      { user_address: { nested: true } },
      { wallet_address: null, destination_address: undefined },
      [{ a: [{ b: { RECIPIENT_ADDRESS: 'r' } }] }],
      'text',
      null,
    ];
    for (const c of cases) expect(check(c), JSON.stringify(c)).toEqual(namingProblems(c, facts));
    // Random payloads over the convention's names in several spellings, free keys and every value type.
    const rnd = seededRandom(32);
    const keys = ['user_id', 'userId', 'USER_ID', 'user-id', 'user_address', 'UserAddress', 'wallet_address', 'walletaddress', 'recipient_address', 'id', 'owner', 'data'];
    const leaf = () => [UUID, 'u-1', '0xabc', 7, true, null, undefined][Math.floor(rnd() * 7)];
    const value = (depth: number): unknown => {
      const r = rnd();
      if (depth > 3 || r < 0.5) return leaf();
      if (r < 0.7) return Array.from({ length: Math.floor(rnd() * 3) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => [keys[Math.floor(rnd() * keys.length)], value(depth + 1)]));
    };
    let broken = 0;
    for (let i = 0; i < 2000; i++) {
      const body = JSON.parse(JSON.stringify({ [keys[i % keys.length]]: value(0), data: value(0) }) ?? 'null');
      const want = namingProblems(body, facts);
      if (want.length) broken++;
      expect(check(body), JSON.stringify(body)).toEqual(want);
    }
    // Both sides of the verdict were exercised.
    expect(broken).toBeGreaterThan(100);
    expect(broken).toBeLessThan(1900);
  });

  it('needs the names from the model (never restated here)', () => {
    expect(() => namingCheck(undefined)).toThrow(/facts.names/);
  });
});

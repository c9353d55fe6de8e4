import { describe, expect, it } from 'vitest';
import { claimPathsCarrying, withoutClaim } from './jwt.ts';

describe('user-token claims are found by the value they carry (the spec does not name them)', () => {
  it('finds a top-level claim case-insensitively and prefers it over nested copies', () => {
    expect(claimPathsCarrying({ email: 'A@x.io', user: { email: 'a@x.io' } }, 'a@X.io')).toEqual([['email']]);
  });
  it('finds a nested claim when no top-level one carries the value', () => {
    expect(claimPathsCarrying({ sub: 'u1', user: { contact: { mail: 'a@x.io' } } }, 'a@x.io')).toEqual([['user', 'contact', 'mail']]);
  });
  it('finds nothing when no claim carries it (the row then fails: the token lacks the claim)', () => {
    expect(claimPathsCarrying({ sub: 'u1', iat: 1 }, 'a@x.io')).toEqual([]);
  });
  it('removes a nested claim without touching the original', () => {
    const claims = { sub: 'u1', user: { email: 'a@x.io', id: 'u1' } };
    expect(withoutClaim(claims, ['user', 'email'])).toEqual({ sub: 'u1', user: { id: 'u1' } });
    expect(claims.user.email).toBe('a@x.io');
  });
});

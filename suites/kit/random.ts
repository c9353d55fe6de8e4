// Random registration data: fresh values for single checks (rnd) and fast-check arbitraries for
// properties, plus how many runs a property of a given cost gets.

import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { CheckContext } from '../../src/checks/types.ts';

export const rnd = {
  hex(bytes: number): string {
    return randomBytes(bytes).toString('hex');
  },
  /** An EOA-shaped address: 0x + 40 lowercase hex digits. */
  address(): string {
    return `0x${randomBytes(20).toString('hex')}`;
  },
  email(): string {
    return `conform-${randomBytes(8).toString('hex')}@example.com`;
  },
  uuid(): string {
    return randomUUID();
  },
};

/** Real two-letter country codes (section 2: "country code, two letters"). */
export const COUNTRIES = ['DE', 'FR', 'ES', 'IT', 'NL', 'PT', 'IE', 'AT', 'BE', 'PL', 'SE', 'FI', 'GB', 'US', 'MX'];

/** numRuns scaled by the cost of one run: cheap (a request or two), user (creates a user), model (a command sequence). */
export function runsFor(ctx: CheckContext, cost: 'cheap' | 'user' | 'model'): number {
  if (cost === 'cheap') return ctx.numRuns;
  return Math.max(2, Math.ceil(ctx.numRuns / 10));
}

export interface UserData {
  email: string;
  country: string;
  address: string;
}

const DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example.com'];

/** Generated registration data. Values are made unique per use with `uniqueUser` (registration refuses duplicates). */
export function userDataArb(): fc.Arbitrary<UserData> {
  return fc.record({
    email: fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/), fc.constantFrom(...DOMAINS)).map(([l, d]) => `${l}@${d}`),
    country: fc.constantFrom(...COUNTRIES),
    address: fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
  });
}

/** Same shape, but unique: a random suffix on the email's local part and on the address's last 6 bytes. */
export function uniqueUser(d: UserData): UserData {
  const [local, domain] = d.email.split('@');
  return { email: `${local}${rnd.hex(5)}@${domain}`, country: d.country, address: `${d.address.slice(0, 30)}${rnd.hex(6)}` };
}

/**
 * An id of the same shape as `known` that names nothing: its last (up to) 8 letters and digits
 * replaced by others of the same class (digit, a-f, other lowercase, uppercase). The spec does not
 * show the format of ids such as 3DS transaction ids, so an "unknown" id must not be a malformed one.
 */
export function unknownIdLike(known: string): string {
  const chars = [...known];
  const pick = (pool: string, not: string) => {
    const options = pool.replace(not, '');
    return options[randomBytes(1)[0] % options.length];
  };
  let changed = 0;
  for (let i = chars.length - 1; i >= 0 && changed < 8; i--) {
    const c = chars[i];
    if (/[0-9]/.test(c)) chars[i] = pick('0123456789', c);
    else if (/[a-f]/.test(c)) chars[i] = pick('abcdef', c);
    else if (/[g-z]/.test(c)) chars[i] = pick('ghijklmnopqrstuvwxyz', c);
    else if (/[A-Z]/.test(c)) chars[i] = pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ', c);
    else continue;
    changed++;
  }
  if (changed === 0) return `${known}0`;
  return chars.join('');
}

// Per-process signing secrets. The S2S and user-token secrets are published in the profile (so checks
// can forge tokens with one claim changed); a fresh reference never shares them with another.

import { randomBytes } from 'node:crypto';

export class Secrets {
  readonly s2sSecret = randomBytes(32).toString('base64url');
  readonly userSecret = randomBytes(32).toString('base64url');
  readonly s2sKey = Buffer.from(this.s2sSecret);
  readonly userKey = Buffer.from(this.userSecret);
}

// Wallet signatures for the SEPA wallet-linking path (section 3). The spec does not show the
// signature scheme; the reference stands in for the Primary Smart Wallet with an HMAC-SHA256 whose
// key is derived from a per-process secret and the wallet address. The test-control endpoint
// POST /users/{user_id}/sign produces it (the test wallet signs as the user's Primary Smart Wallet
// would) and POST /api/v1/bank/accounts/complete verifies it against the challenge init issued.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET = randomBytes(32);

/** The signature of `challenge` by the wallet at `walletAddress`: 0x + 64 hex digits. */
export function walletSign(walletAddress: string, challenge: string): string {
  const key = createHmac('sha256', SECRET).update(walletAddress.toLowerCase()).digest();
  return `0x${createHmac('sha256', key).update(challenge).digest('hex')}`;
}

/** True when `signed` is the wallet's signature of `challenge`. */
export function walletVerify(walletAddress: string, challenge: string, signed: string): boolean {
  const want = Buffer.from(walletSign(walletAddress, challenge));
  const got = Buffer.from(signed.toLowerCase());
  return want.length === got.length && timingSafeEqual(want, got);
}

// JWTs: forged HS256 tokens (with a signing secret from the profile), tampered signatures (no secret
// needed), and decoding of claims and headers.

import { SignJWT, base64url, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';

const enc = new TextEncoder();

/** Signs `payload` as an HS256 JWT (claims exactly as given; nothing added). */
export async function forgeHs256(payload: JWTPayload, secret: string, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ typ: 'JWT', ...header, alg: 'HS256' }).sign(enc.encode(secret));
}

/** The same token with its signature altered (first signature byte flipped): needs no secret. */
export function tamperSignature(token: string): string {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[2]) throw new Error('not a signed compact JWT');
  const sig = base64url.decode(parts[2]);
  sig[0] ^= 0x01;
  return `${parts[0]}.${parts[1]}.${base64url.encode(sig)}`;
}

export function jwtClaims(token: string): JWTPayload {
  return decodeJwt(token);
}

export function jwtHeader(token: string): Record<string, unknown> {
  return decodeProtectedHeader(token) as Record<string, unknown>;
}

/** Claim names whose value equals `value` (addresses and emails compared case-insensitively). */
export function claimsCarrying(payload: JWTPayload, value: string): string[] {
  const v = value.toLowerCase();
  return Object.entries(payload)
    .filter(([, x]) => typeof x === 'string' && x.toLowerCase() === v)
    .map(([k]) => k);
}

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

/**
 * Where in the claims `value` sits: top-level names first (the usual layout), else paths into nested
 * objects up to `maxDepth` (the spec does not show the claim layout, so a nested `user.email` is a
 * reading it allows). Compared case-insensitively, like addresses and emails.
 */
export function claimPathsCarrying(payload: Record<string, unknown>, value: string, maxDepth = 4): string[][] {
  const top = claimsCarrying(payload as JWTPayload, value);
  if (top.length) return top.map((k) => [k]);
  const v = value.toLowerCase();
  const out: string[][] = [];
  const walk = (node: unknown, path: string[]) => {
    if (path.length > maxDepth || node === null || typeof node !== 'object' || Array.isArray(node)) return;
    for (const [k, x] of Object.entries(node as Record<string, unknown>)) {
      if (typeof x === 'string' && x.toLowerCase() === v) out.push([...path, k]);
      else walk(x, [...path, k]);
    }
  };
  walk(payload, []);
  return out;
}

/** Deletes the claim at `path` (a copy of each object on the way, so the caller's claims stay intact). */
export function withoutClaim(payload: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  const copy = { ...payload };
  if (rest.length === 0) delete copy[head];
  else if (copy[head] && typeof copy[head] === 'object') copy[head] = withoutClaim(copy[head] as Record<string, unknown>, rest);
  return copy;
}

/** Moves a token's claims into the past: issued `validity` + 1 h ago, expired an hour ago (the section 7 ErrorExpired rows). */
export function expire(claims: Record<string, unknown>, validity: number): void {
  const iat = typeof claims.iat === 'number' ? claims.iat : Math.floor(Date.now() / 1000);
  claims.iat = iat - validity - 3600;
  claims.exp = iat - 3600;
}

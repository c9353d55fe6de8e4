// Minimal HS256 JWT signing and verification on node:crypto. The reference owns its token checks so
// the section 7 row order (format, signature, expiry, claims) and the server clock are exact.

import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** `Bearer <token>` where the token has three base64url segments (the signature may be empty). */
export const BEARER_RE = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/;

export function signHs256(payload: Record<string, unknown>, key: Buffer): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  const sig = createHmac('sha256', key).update(body).digest('base64url');
  return `${body}.${sig}`;
}

/** Header of a compact JWS, or undefined when it does not decode. */
export function decodeHeader(token: string): Record<string, unknown> | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  try {
    const h = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8'));
    return h && typeof h === 'object' && !Array.isArray(h) ? h : undefined;
  } catch {
    return undefined;
  }
}

/** Payload when the HS256 signature verifies under `key`; undefined otherwise. */
export function verifyHs256(token: string, key: Buffer, skipSignature = false): Record<string, unknown> | undefined {
  const last = token.lastIndexOf('.');
  const first = token.indexOf('.');
  if (first <= 0 || last === first) return undefined;
  const header = decodeHeader(token);
  if (!header || header.alg !== 'HS256') return undefined;
  if (!skipSignature) {
    const expected = createHmac('sha256', key).update(token.slice(0, last)).digest();
    const given = Buffer.from(token.slice(last + 1), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  }
  try {
    const p = JSON.parse(Buffer.from(token.slice(first + 1, last), 'base64url').toString('utf8'));
    return p && typeof p === 'object' && !Array.isArray(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

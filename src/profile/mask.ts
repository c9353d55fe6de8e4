// Secret masking. Reports, curl commands and error lines leave the process; secrets must not.
// Literal secrets come from the profile; tokens are caught by shape (Bearer values, JWTs and
// well-known JSON fields) because the engine never knows every token a target hands out.

import { operationAuthSecrets } from './operation-auth.ts';
import type { TargetProfile } from './types.ts';

export const MASK = '***';

/** Secrets shorter than this are not masked literally: masking "a" would shred every report. */
const MIN_LITERAL_LENGTH = 4;

/** Every literal secret in a profile (client secrets, signing secrets). */
export function secretsOf(profile: Partial<TargetProfile> | undefined): string[] {
  if (!profile) return [];
  const out: string[] = [];
  for (const c of profile.clients ?? []) if (c?.client_secret) out.push(c.client_secret);
  for (const c of Object.values(profile.special_clients ?? {})) if (c?.client_secret) out.push(c.client_secret);
  if (profile.s2s_signing_secret) out.push(profile.s2s_signing_secret);
  if (profile.user_token_signing_secret) out.push(profile.user_token_signing_secret);
  if (profile.idp?.tokens) out.push(profile.idp.tokens.access_token, profile.idp.tokens.identity_token);
  // Headers given for an operation whose authentication the spec does not show: the whole value, and
  // its credential after a scheme word ("ApiKey k-123": k-123 may be echoed alone).
  for (const v of operationAuthSecrets(profile)) out.push(v, v.trim().split(/\s+/).pop() ?? v);
  // The private part of a stable identity-provider key (JWK "d" and, for RSA, the primes).
  for (const k of ['d', 'p', 'q', 'dp', 'dq', 'qi']) {
    const v = profile.idp?.signing_key?.[k];
    if (typeof v === 'string') out.push(v);
  }
  return out.filter((s) => s.length >= MIN_LITERAL_LENGTH);
}

const BEARER = /\b(Bearer)(\s+)[^\s"',;]+/gi;
// header.payload.signature, base64url; catches tokens echoed in bodies or query strings.
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const SECRET_FIELDS = /("(?:client_secret|access_token|refresh_token|id_token|signed_challenge)"\s*:\s*")((?:[^"\\]|\\.)*)(")/g;
const SECRET_FORM = /\b(client_secret=)[^&\s'"]+/g;

/** Replaces every secret in `text` with `***`. `extra` adds run-time secrets (e.g. tokens minted). */
export function maskSecrets(text: string, profile?: Partial<TargetProfile>, extra: Iterable<string> = []): string {
  if (!text) return text;
  let out = text;
  // Only the secrets the text contains (a run mints thousands of tokens; a RegExp per secret per
  // text was a tenth of a selftest's CPU), longest first so a secret that contains another is masked whole.
  const literals = [...secretsOf(profile), ...extra]
    .filter((s) => s && s.length >= MIN_LITERAL_LENGTH && text.includes(s))
    .sort((a, b) => b.length - a.length);
  for (const s of literals) out = out.split(s).join(MASK);
  out = out.replace(BEARER, (_m, word: string, ws: string) => `${word}${ws}${MASK}`);
  out = out.replace(JWT, MASK);
  out = out.replace(SECRET_FIELDS, (_m, pre: string, value: string, post: string) => (value ? `${pre}${MASK}${post}` : `${pre}${post}`));
  out = out.replace(SECRET_FORM, `$1${MASK}`);
  return out;
}

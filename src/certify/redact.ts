// The target profile as it goes into a certificate: every secret removed. Fields that hold secrets
// by name (client_secret, *_signing_secret, anything named secret/password/token/key) become "***",
// URLs lose userinfo, and the whole text then goes through maskSecrets (src/profile/mask) for any
// literal secret left elsewhere (a secret pasted into a request template, say).

import { MASK, maskSecrets, secretsOf } from '../profile/mask.ts';
import type { TargetProfile } from '../profile/types.ts';
import type { Committer } from './commit.ts';
import { commitText, kindOfField } from './transcript.ts';

const SECRET_KEY = /secret|password|passwd|token|private|api[_-]?key|^d$/i;

function stripUserinfo(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  try {
    const u = new URL(value);
    if (!u.username && !u.password) return value;
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return value;
  }
}

/** Secrets by member name become `secret(key, value)`; URLs lose userinfo. */
function walk(value: unknown, secret: (key: string, value: string) => string): unknown {
  if (typeof value === 'string') return stripUserinfo(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, secret));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) && (typeof v === 'string' || typeof v === 'number') ? secret(k, String(v)) : walk(v, secret)]));
  }
  return value;
}

/** A copy of `profile` with no secret in it (as JSON text, ready to write). */
export function redactedProfileJson(profile: TargetProfile): string {
  const text = JSON.stringify(walk(profile, () => MASK), null, 2);
  return `${maskSecrets(text, profile)}\n`;
}

/**
 * The profile as it goes into a certification package: each secret replaced by its commitment (the
 * same one the transcript holds for the same value, so a re-judging run that sends the packaged
 * client_secret sends what the transcript recorded), then literal secrets anywhere else masked.
 */
export function committedProfileJson(profile: TargetProfile, c: Committer): string {
  let text = JSON.stringify(walk(profile, (k, v) => c.commit(kindOfField(k) === 'token' ? 'token' : 'secret', v)), null, 2);
  // A secret pasted elsewhere (a request template, say): the same commitment as under its own name.
  for (const s of secretsOf(profile).sort((a, b) => b.length - a.length)) text = text.split(s).join(c.commit('secret', s));
  return `${commitText(text, c)}\n`;
}

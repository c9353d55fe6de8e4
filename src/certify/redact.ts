// The target profile as it goes into a certificate: every secret removed. Fields that hold secrets
// by name (client_secret, *_signing_secret, anything named secret/password/token/key) become "***",
// URLs lose userinfo, and the whole text then goes through maskSecrets (src/profile/mask) for any
// literal secret left elsewhere (a secret pasted into a request template, say).

import { MASK, maskSecrets } from '../profile/mask.ts';
import type { TargetProfile } from '../profile/types.ts';

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

function walk(value: unknown): unknown {
  if (typeof value === 'string') return stripUserinfo(value);
  if (Array.isArray(value)) return value.map(walk);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) && (typeof v === 'string' || typeof v === 'number') ? MASK : walk(v)]));
  }
  return value;
}

/** A copy of `profile` with no secret in it (as JSON text, ready to write). */
export function redactedProfileJson(profile: TargetProfile): string {
  const text = JSON.stringify(walk(profile), null, 2);
  return `${maskSecrets(text, profile)}\n`;
}

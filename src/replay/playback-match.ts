// How the playback target (playback.ts) tells which recorded exchange a new request stands for, and
// which of its values are the run's own: route segments, body likeness, the shape of a value (an id is
// only ever mapped to an id), and the values of an answer that later requests send.

import { normalise } from './shape.ts';

/**
 * Values worth following from an answer into later requests: ids, addresses, tokens, commitments (8+
 * characters, no spaces, a digit in them or a commitment). Not words: a status such as
 * "ActivationNotStarted" is in many answers and requests without being made once and shared.
 */
export const VALUE = /^(?=.*[0-9]|cmt|eyJ)[A-Za-z0-9][A-Za-z0-9._@:+/=-]{7,}$/;

/** The string leaves of a JSON value (values, never member names). */
export function leaves(v: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 32 || out.length > 1000) return out;
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) leaves(x, out, depth + 1);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) leaves(x, out, depth + 1);
  return out;
}

export const JWT_WHOLE = /^eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*$/;

export function segmentsMatch(rec: string, now: string, map: Map<string, string>): boolean {
  if (rec === now) return true;
  const a = decodeURIComponent(rec);
  const b = decodeURIComponent(now);
  if (map.get(a) === b) return true;
  // Volatile values (ids, addresses, timestamps) of the same shape: the run made a new one.
  const na = normalise(a);
  return na !== a && na === normalise(b);
}

export function jsonOf(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Pairs of strings that differ between the recorded and the new value at the same place. */
export function differing(rec: unknown, now: unknown, out: [string, string][], depth = 0): void {
  if (depth > 32 || out.length > 200) return;
  if (typeof rec === 'string' && typeof now === 'string') {
    if (rec !== now) out.push([rec, now]);
    return;
  }
  if (Array.isArray(rec) && Array.isArray(now)) {
    rec.forEach((v, i) => i < now.length && differing(v, now[i], out, depth + 1));
    return;
  }
  if (rec && now && typeof rec === 'object' && typeof now === 'object') {
    for (const [k, v] of Object.entries(rec)) if (k in now) differing(v, (now as Record<string, unknown>)[k], out, depth + 1);
  }
}

/** The kind of value a string is, so a value is only ever mapped to one of its kind (an id to an id). */
export function shapeOf(v: string): string {
  if (/^cmt[.-](token|secret|pan|cvv|iban)[.-]/.test(v)) return 'committed';
  if (/^[^@\s]+@[^@\s]+$/.test(v)) return 'email';
  const n = normalise(v);
  return n !== v ? n : 'text';
}

/** A committed credential is known by its commitment (the claims of a JWT may carry mapped values). */
export function credentialOf(header: string): string {
  return /cmt[.-]token[.-]([a-p]{40})/.exec(header)?.[1] ?? header;
}

/**
 * How alike a recorded JSON body and a new one are: the same members (a property test sends one
 * operation with several member sets) count most, then each leaf value equal up to mapped values.
 */
export function similarity(rec: unknown, now: unknown, map: Map<string, string>, depth = 0): number {
  if (depth > 16) return 0;
  if (rec && now && typeof rec === 'object' && typeof now === 'object' && !Array.isArray(rec) && !Array.isArray(now)) {
    const [a, b] = [Object.keys(rec).sort(), Object.keys(now).sort()];
    let n = a.join() === b.join() ? 10 : 0;
    for (const k of a) if (k in now) n += similarity((rec as Record<string, unknown>)[k], (now as Record<string, unknown>)[k], map, depth + 1);
    return n;
  }
  if (Array.isArray(rec) && Array.isArray(now)) return rec.reduce<number>((n, v, i) => n + (i < now.length ? similarity(v, now[i], map, depth + 1) : 0), rec.length === now.length ? 1 : 0);
  return rec === now || (typeof rec === 'string' && map.get(rec) === now) ? 1 : 0;
}


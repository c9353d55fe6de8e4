// What a record keeps of a request or an answer: tokens become "<s2s token #3>", the client secret
// "<redacted>". A report is shared with people who must never see a credential.

import type { IncomingHttpHeaders } from 'node:http';
import type { TokenBook } from './tokens.ts';

const SECRET_FIELDS = new Set(['client_secret', 'access_token']);

/**
 * The client's own header credentials: the header names and values profile.operation_auth gives for the
 * operations whose authentication the spec does not show (e.g. a vendor key to pci_url). Read from the
 * profile the client was given, never a list written here.
 */
export interface HeaderSecrets {
  /** Lower-case header names whose value is always masked. */
  names: ReadonlySet<string>;
  /** Values masked under any header name (a key sent under another header than the profile says). */
  values: ReadonlySet<string>;
}

export const NO_HEADER_SECRETS: HeaderSecrets = { names: new Set(), values: new Set() };

/** The header credentials of profile.operation_auth (every operation, every headers-mode entry). */
export function headerSecretsOf(auth: Record<string, { headers?: Record<string, string> } | undefined> | undefined): HeaderSecrets {
  const names = new Set<string>();
  const values = new Set<string>();
  for (const a of Object.values(auth ?? {})) {
    for (const [k, v] of Object.entries(a?.headers ?? {})) {
      names.add(k.toLowerCase());
      if (v !== '') values.add(v);
    }
  }
  return { names, values };
}

export function redactHeaders(h: IncomingHttpHeaders, book: TokenBook, secrets: HeaderSecrets = NO_HEADER_SECRETS): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const s = Array.isArray(v) ? v.join(', ') : v;
    if (secrets.names.has(k) || [...secrets.values].some((x) => s.includes(x))) out[k] = '<redacted>';
    else if (k === 'authorization' || k === 'identity') {
      const t = book.lookup(s);
      const scheme = /^\s*(\S+)/.exec(s)?.[1] ?? '';
      out[k] = t ? `${scheme} <${t.kind} token #${t.n}>` : `${scheme} <token>`;
    } else out[k] = s;
  }
  return out;
}

/** A copy of a JSON value with secret fields replaced; tokens the book knows are named by number. */
export function redactBody(v: unknown, book?: TokenBook, depth = 0): unknown {
  if (depth > 20 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => redactBody(x, book, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (SECRET_FIELDS.has(k) && typeof x === 'string') {
      const t = book?.lookup(`Bearer ${x}`);
      out[k] = t ? `<${t.kind} token #${t.n}>` : '<redacted>';
    } else out[k] = redactBody(x, book, depth + 1);
  }
  return out;
}

// What a record keeps of a request or an answer: tokens become "<s2s token #3>", the client secret
// "<redacted>". A report is shared with people who must never see a credential.

import type { IncomingHttpHeaders } from 'node:http';
import type { TokenBook } from './tokens.ts';

const SECRET_FIELDS = new Set(['client_secret', 'access_token']);

export function redactHeaders(h: IncomingHttpHeaders, book: TokenBook): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const s = Array.isArray(v) ? v.join(', ') : v;
    if (k === 'authorization' || k === 'identity') {
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

// The run's exchanges as they go into a certification package (transcript.har): the HAR the run
// writes, with the values it masked as "***" restored from the wire (raw-capture.ts) and every secret
// then replaced by its commitment (commit.ts): tokens, secrets, card numbers, CVV, IBANs, e-mail
// addresses. Replaced by JSON field name where a body is JSON, by shape everywhere else (a JWT, a
// Bearer credential, an address, a Luhn-valid card number, an IBAN, a PEM private key). The same
// text-level pass runs over every other file of the package (commitText).

import type { Har, HarEntry } from '../report/har.ts';
import type { CommitKind, Committer } from './commit.ts';
import type { RawCapture } from './raw-capture.ts';

/** Kind of a JSON member by its name; undefined: judged by the value's shape only. */
export function kindOfField(key: string): CommitKind | undefined {
  const k = key.toLowerCase();
  if (k === 'token_type' || k === 'token_symbol' || k === 'token_address') return undefined;
  if (/(^|_)(secret|password|passwd|private_key|signing_key)$/.test(k) || k === 'd') return 'secret';
  if (k === 'token' || k.endsWith('_token') || k === 'signed_challenge' || k === 'authorization' || k === 'identity') return 'token';
  if (/^(card_number|pan|primary_account_number|number)$/.test(k)) return 'pan';
  if (/^(cvv|cvc|cvv2|cvc2|security_code)$/.test(k)) return 'cvv';
  if (k === 'iban') return 'iban';
  if (k === 'email' || k.endsWith('_email') || k === 'x-user-email') return 'email';
  return undefined;
}

const PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const JWT_WHOLE = /^eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*$/;
const BEARER = /\b(Bearer|Basic)(\s+)([^\s"',;\\]+)/gi;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
/**
 * 13 to 19 digits in a row, or in groups of four split by spaces or dashes: a card number when
 * Luhn-valid. Not inside a longer token (a UUID's all-digit groups, a hex id).
 */
export const PAN_LIKE = /(?<![0-9A-Za-z-])(?:[0-9]{13,19}|[0-9]{4}(?:[ -][0-9]{4}){2,3}(?:[ -]?[0-9]{1,3})?)(?![0-9A-Za-z-])/g;
const PAN = PAN_LIKE;
const IBAN = /\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,30}\b/g;
const FORM_SECRET = /\b(client_secret=)([^&\s'"]+)/g;

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** IBAN check digits (ISO 13616: the rearranged number mod 97 is 1). */
function ibanValid(s: string): boolean {
  const v = s.replace(/ /g, '');
  const moved = v.slice(4) + v.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const n = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of n) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1;
}

/**
 * A JWT with its claims kept (the evidence the claim checks judge; PII in them committed) and its
 * signature replaced by the commitment of the whole token (`cmt-token-LETTERS`, base64url-safe): the
 * result reads as the token did and is no credential. Not a JSON JWT: the whole of it committed.
 */
export function commitJwt(jwt: string, c: Committer): string {
  const [h, p, sig] = jwt.split('.');
  if (/^cmt-token-[a-p]{40}$/.test(sig ?? '')) return jwt;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as unknown;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as unknown;
    if (!header || typeof header !== 'object' || !claims || typeof claims !== 'object') throw new Error('not JSON objects');
    const committed = Buffer.from(JSON.stringify(commitJson(claims, c))).toString('base64url');
    return `${h}.${committed}.${c.commit('token', jwt).replace(/^cmt\.token\./, 'cmt-token-')}`;
  } catch {
    return c.commit('token', jwt);
  }
}

/** Every secret `text` shows by its shape, committed. Commitments already there stay as they are. */
export function commitText(text: string, c: Committer): string {
  if (!text) return text;
  return text
    .replace(PEM, (m) => c.commit('secret', m))
    .replace(JWT, (m) => (/\.cmt-token-[a-p]{40}$/.test(m) ? m : commitJwt(m, c)))
    // A credential after Bearer/Basic in free text; a word ("Bearer token is not ...") is prose.
    .replace(BEARER, (m, word: string, ws: string, v: string) => (v.length < 16 || v.startsWith('cmt') || v.startsWith('eyJ') ? m : `${word}${ws}${c.commit('token', v)}`))
    .replace(FORM_SECRET, (_m, pre: string, v: string) => `${pre}${c.commit('secret', decodeURIComponent(v))}`)
    .replace(EMAIL, (m) => (m.endsWith('@commit.invalid') ? m : c.commit('email', m)))
    .replace(PAN, (m) => (luhn(m.replace(/[ -]/g, '')) ? c.commit('pan', m.replace(/[ -]/g, '')) : m))
    .replace(IBAN, (m) => (ibanValid(m) ? c.commit('iban', m.replace(/ /g, '')) : m));
}

/**
 * Literal secrets (the profile's, src/profile/mask secretsOf) wherever they are left: a secret sent in a
 * body that is not JSON, or pasted into a message. Longest first, so a secret holding another is whole.
 */
export function commitLiterals(text: string, literals: readonly string[], c: Committer): string {
  let out = text;
  for (const s of [...literals].sort((a, b) => b.length - a.length)) {
    if (!s || !out.includes(s)) continue;
    out = out.split(s).join(c.commit('secret', s));
  }
  return out;
}

/** A JSON value with every secret committed: by member name, then by shape. */
export function commitJson(value: unknown, c: Committer, key?: string): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    const kind = key !== undefined ? kindOfField(key) : undefined;
    const s = String(value);
    if (kind === 'token' && JWT_WHOLE.test(s)) return commitJwt(s, c);
    if (kind && s !== '' && s !== '***') return c.commit(kind, kind === 'pan' ? s.replace(/[ -]/g, '') : s);
    return typeof value === 'string' ? commitText(value, c) : value;
  }
  if (Array.isArray(value)) return value.map((v) => commitJson(v, c, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, commitJson(v, c, k)]));
  return value;
}

/** A body: JSON committed member by member (and written back compactly, as the client sends it), else as text. */
export function commitBody(text: string, c: Committer): string {
  try {
    const doc = JSON.parse(text) as unknown;
    if (doc && typeof doc === 'object') return JSON.stringify(commitJson(doc, c));
  } catch {
    // not JSON
  }
  return commitText(text, c);
}

function commitHeaders(headers: { name: string; value: string }[], c: Committer): { name: string; value: string }[] {
  return headers.map(({ name, value }) => {
    const kind = kindOfField(name);
    if (kind === 'email') return { name, value: c.commit('email', value) };
    if (kind === 'token') {
      const m = /^(\S+)(\s+)(.+)$/.exec(value);
      const credential = (v: string) => (JWT_WHOLE.test(v) ? commitJwt(v, c) : c.commit('token', v));
      return { name, value: m ? `${m[1]}${m[2]}${credential(m[3])}` : credential(value) };
    }
    return { name, value: commitText(value, c) };
  });
}

/** One entry with the raw values (when captured) in place of the masked ones, then committed. */
export function commitEntry(e: HarEntry, c: Committer, raw?: RawCapture): HarEntry {
  const wire = raw?.get(e._requestId);
  const req = e.request;
  const headers = wire ? req.headers.map(({ name, value }) => ({ name, value: wire.requestHeaders[name.toLowerCase()] ?? value })) : req.headers;
  const reqBody = wire?.requestBody ?? req.postData?.text;
  const resText = wire?.responseBody !== undefined && !e.response.content.comment ? wire.responseBody : e.response.content.text;
  const entry: HarEntry = {
    ...e,
    request: {
      ...req,
      url: commitText(req.url, c),
      headers: commitHeaders(headers, c),
      queryString: req.queryString.map(({ name, value }) => ({ name, value: kindOfField(name) ? c.commit(kindOfField(name)!, value) : commitText(value, c) })),
      ...(req.postData ? { postData: { ...req.postData, text: commitBody(reqBody ?? '', c) } } : {}),
    },
    response: {
      ...e.response,
      headers: commitHeaders(e.response.headers, c),
      content: { ...e.response.content, ...(resText !== undefined ? { text: commitBody(resText, c) } : {}) },
    },
  };
  if (entry.request.postData) entry.request.bodySize = Buffer.byteLength(entry.request.postData.text);
  if (entry.response.content.text !== undefined) entry.response.content.size = Buffer.byteLength(entry.response.content.text);
  if (e._error) entry._error = { ...e._error, message: commitText(e._error.message, c) };
  return entry;
}

/** The package's transcript: every entry committed; the log's comment too. */
export function commitHar(har: Har, c: Committer, raw?: RawCapture): Har {
  return {
    log: {
      ...har.log,
      entries: har.log.entries.map((e) => commitEntry(e, c, raw)),
      ...(har.log.comment ? { comment: commitText(har.log.comment, c) } : {}),
    },
  };
}

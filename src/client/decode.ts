// Response bodies as the target sends them: content codings decoded (the client asks for gzip,
// deflate and br deliberately, so a proxy or CDN compressing answers is no false positive) with the
// decoded size bounded (a gzip bomb is the target's fault, not an out-of-memory crash), and JSON
// nesting bounded before parsing (a 1e6-deep array would make every recursive walker throw RangeError).

import zlib from 'node:zlib';
import { TransportError } from './errors.ts';

/** What the client sends as Accept-Encoding; every coding listed is decoded below. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Deepest JSON nesting the client parses; deeper bodies are the target's fault (GENERAL-TRANSPORT-JSON). */
export const MAX_JSON_DEPTH = 256;

/** The rule a body the client cannot read as JSON breaks ("All bodies are JSON", section 4). */
export const JSON_BODY_RULE = 'GENERAL-TRANSPORT-JSON';

/** The decoder's output cap for a `max`-byte body limit: one byte past it, so "over the limit" shows. */
const outputCap = (max: number) => max + 1;

function decodeOne(buf: Buffer, coding: string, max: number): Buffer {
  const opts = { maxOutputLength: outputCap(max) };
  if (coding === 'gzip' || coding === 'x-gzip') return zlib.gunzipSync(buf, opts);
  if (coding === 'br') return zlib.brotliDecompressSync(buf, opts);
  if (coding === 'deflate') {
    // RFC 9110 deflate is the zlib format; some servers send raw deflate: accept both.
    try {
      return zlib.inflateSync(buf, opts);
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw err;
      return zlib.inflateRawSync(buf, opts);
    }
  }
  throw Object.assign(new Error(`unsupported Content-Encoding ${JSON.stringify(coding)} (the client asked for ${ACCEPT_ENCODING})`), { code: 'UNSUPPORTED_CODING' });
}

/** BODY_TOO_LARGE carrying the bytes held when the client refused (what tests bound memory on). */
export function tooLarge(message: string, href: string, bytes: number): TransportError {
  const err = new TransportError('BODY_TOO_LARGE', message, href);
  err.bytes = bytes;
  return err;
}

/** Decodes `raw` by its Content-Encoding (codings applied in order, so undone in reverse), at most `max` bytes out. */
export function decodeBody(raw: Buffer, contentEncoding: string | undefined, max: number, href: string): Buffer {
  const codings = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  let out = raw;
  for (const coding of codings.reverse()) {
    try {
      out = decodeOne(out, coding, max);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ERR_BUFFER_TOO_LARGE' || (err instanceof RangeError && /too large|maxOutputLength/i.test(err.message))) {
        // zlib stops as soon as its output passes maxOutputLength, in the middle of the stream: it
        // held at most that plus the output chunk it was filling.
        throw tooLarge(`${href}: the ${coding}-encoded body decodes to more than the ${max}-byte limit (decoding stopped at the limit: a compression bomb is refused)`, href, outputCap(max) + zlib.constants.Z_DEFAULT_CHUNK);
      }
      throw new TransportError('DECODE', `${href}: Content-Encoding ${coding} could not be decoded: ${(err as Error).message}`, href, JSON_BODY_RULE);
    }
    if (out.length > max) throw tooLarge(`${href}: the ${coding}-encoded body decodes to more than the ${max}-byte limit (decoded ${out.length} bytes)`, href, out.length);
  }
  return out;
}

/** Deepest nesting of arrays and objects in `text` (strings skipped); stops counting past `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** JSON.parse with the nesting bounded: throws TransportError BODY_TOO_DEEP (the target's fault) past MAX_JSON_DEPTH. */
export function parseJsonBounded(text: string, href: string): { json?: unknown; jsonError?: string } {
  if (text.length === 0) return { jsonError: 'empty body' };
  // Each level of nesting takes at least one character, so a text no longer than the bound cannot pass it.
  if (text.length > MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new TransportError('BODY_TOO_DEEP', `${href}: the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels; refused unparsed`, href, JSON_BODY_RULE);
  }
  try {
    return { json: JSON.parse(text) };
  } catch (err) {
    return { jsonError: (err as Error).message };
  }
}

// Byte-level helpers of the HTTP/1.1 answer reader (transport.ts): framing names as bytes, and matching
// without making strings.

export const MAX_HEAD = 64 * 1024;
export const CRLF2 = Buffer.from('\r\n\r\n');
export const CRLF = Buffer.from('\r\n');
export const HTTP1 = Buffer.from('HTTP/1.');
// Framing header names and the usual Connection value, lower case, as bytes.
export const CONTENT_LENGTH = Buffer.from('content-length');
export const TRANSFER_ENCODING = Buffer.from('transfer-encoding');
export const CONNECTION = Buffer.from('connection');
export const KEEP_ALIVE = Buffer.from('keep-alive');

export const digits = (b: Buffer, from: number, to: number) => {
  for (let i = from; i < to; i++) if (b[i] < 48 || b[i] > 57) return false;
  return true;
};
/** b at `at` holds exactly `s`. */
export const spells = (b: Buffer, at: number, s: Buffer) => {
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s[i]) return false;
  return true;
};
/** b at `at` spells `name` (lower case) in any letter case. */
export const named = (b: Buffer, at: number, name: Buffer) => {
  for (let i = 0; i < name.length; i++) {
    const c = b[at + i];
    if ((c >= 65 && c <= 90 ? c | 0x20 : c) !== name[i]) return false;
  }
  return true;
};
export const SPAN: [number, number] = [0, 0];
/** [from, to) without leading and trailing spaces and tabs (one shared pair: read it before the next call). */
export const trimmed = (b: Buffer, from: number, to: number): [number, number] => {
  while (from < to && (b[from] === 32 || b[from] === 9)) from++;
  while (to > from && (b[to - 1] === 32 || b[to - 1] === 9)) to--;
  SPAN[0] = from;
  SPAN[1] = to;
  return SPAN;
};


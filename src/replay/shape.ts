// Structural comparison of two JSON answers for replay: fields present in one only, type changes and
// changed values, after ids and timestamps are normalised away (a replay mints new ones every time).
// Numbers are compared by type only: balances, limits and expiry times move between two calls.

/** Placeholders for values that differ between any two calls by design. */
const VOLATILE: [RegExp, string][] = [
  [/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, '<uuid>'],
  [/^[0-9A-HJKMNP-TV-Z]{26}$/, '<ulid>'],
  [/^0x[0-9a-fA-F]{8,}$/, '<address>'],
  [/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/, '<timestamp>'],
  [/\*\*\*/, '<masked>'],
];

/** A string with its volatile value replaced by a placeholder. */
export function normalise(s: string): string {
  for (const [re, placeholder] of VOLATILE) if (re.test(s)) return placeholder;
  return s;
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** At most this many differences per answer: a wholly different body is one finding, not thousands. */
const MAX_DIFFERENCES = 50;
const MAX_DEPTH = 32;

/** Differences from `recorded` to `now`, each `path: what` (`$.data[].id: only in the recording`). */
export function shapeDiff(recorded: unknown, now: unknown, path = '$', out: string[] = [], depth = 0): string[] {
  if (out.length >= MAX_DIFFERENCES || depth > MAX_DEPTH) return out;
  const [a, b] = [typeOf(recorded), typeOf(now)];
  if (a !== b) {
    out.push(`${path}: ${a} in the recording, ${b} now`);
    return out;
  }
  if (a === 'array') {
    // Lists grow and shrink between calls; their elements keep one shape: compare the first of each.
    const [x, y] = [recorded as unknown[], now as unknown[]];
    if (x.length && y.length) shapeDiff(x[0], y[0], `${path}[]`, out, depth + 1);
    else if (x.length !== y.length) out.push(`${path}: ${x.length ? 'items in the recording, empty now' : 'empty in the recording, items now'}`);
    return out;
  }
  if (a === 'object') {
    const [x, y] = [recorded as Record<string, unknown>, now as Record<string, unknown>];
    for (const k of Object.keys(x)) if (!(k in y)) out.push(`${path}.${k}: only in the recording`);
    for (const k of Object.keys(y)) if (!(k in x)) out.push(`${path}.${k}: only now`);
    for (const k of Object.keys(x)) if (k in y) shapeDiff(x[k], y[k], `${path}.${k}`, out, depth + 1);
    return out;
  }
  if (a === 'string') {
    const [x, y] = [normalise(recorded as string), normalise(now as string)];
    if (x !== y) out.push(`${path}: ${JSON.stringify(x)} in the recording, ${JSON.stringify(y)} now`);
  }
  if (a === 'boolean' && recorded !== now) out.push(`${path}: ${String(recorded)} in the recording, ${String(now)} now`);
  return out.slice(0, MAX_DIFFERENCES);
}

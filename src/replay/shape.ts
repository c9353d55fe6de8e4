// Structural comparison of two JSON answers, shared by replay (a recorded answer against a new one)
// and compare (two targets' answers to the same step): fields present in one only, type changes and
// changed values, after ids and timestamps are normalised away (every call mints new ones).
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

/** The JSON type of a value: null, array, object, string, number, boolean. */
export const jsonTypeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * One difference from the first answer to the second, at a path like `$.data[].id` (`[]`: the first
 * element of a list, whose elements keep one shape). first/second: the JSON types (kind type), the
 * normalised values as JSON text (kind value), `items`/`empty` (kind emptiness); absent for presence.
 */
export interface ShapeDifference {
  path: string;
  kind: 'only-first' | 'only-second' | 'type' | 'value' | 'emptiness';
  first?: string;
  second?: string;
}

export interface ShapeOptions {
  /** Paths whose differences are not reported (values a profile marks volatile), nor those below them. */
  skip?: (path: string) => boolean;
  /**
   * Object keys that are ids, addresses or timestamps are normalised like values (a map keyed by a
   * token address differs in its keys from one target to the other): keys normalising alike compare
   * their first entries, as list elements do.
   */
  normaliseKeys?: boolean;
}

/** At most this many differences per answer: a wholly different body is one finding, not thousands. */
const MAX_DIFFERENCES = 50;
const MAX_DEPTH = 32;

/** Entries of an object by key, the key normalised when asked (first entry per normalised key). */
function entries(o: Record<string, unknown>, normaliseKeys: boolean): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(o)) {
    const key = normaliseKeys ? normalise(k) : k;
    if (!out.has(key)) out.set(key, v);
  }
  return out;
}

function walk(first: unknown, second: unknown, path: string, opts: ShapeOptions, out: ShapeDifference[], depth: number): void {
  if (out.length >= MAX_DIFFERENCES || depth > MAX_DEPTH || opts.skip?.(path)) return;
  const [a, b] = [jsonTypeOf(first), jsonTypeOf(second)];
  if (a !== b) {
    out.push({ path, kind: 'type', first: a, second: b });
    return;
  }
  if (a === 'array') {
    // Lists grow and shrink between calls; their elements keep one shape: compare the first of each.
    const [x, y] = [first as unknown[], second as unknown[]];
    if (x.length && y.length) walk(x[0], y[0], `${path}[]`, opts, out, depth + 1);
    else if (x.length !== y.length) out.push({ path, kind: 'emptiness', first: x.length ? 'items' : 'empty', second: y.length ? 'items' : 'empty' });
    return;
  }
  if (a === 'object') {
    const [x, y] = [entries(first as Record<string, unknown>, !!opts.normaliseKeys), entries(second as Record<string, unknown>, !!opts.normaliseKeys)];
    const at = (k: string) => `${path}.${k}`;
    for (const k of x.keys()) if (!y.has(k) && !opts.skip?.(at(k))) out.push({ path: at(k), kind: 'only-first' });
    for (const k of y.keys()) if (!x.has(k) && !opts.skip?.(at(k))) out.push({ path: at(k), kind: 'only-second' });
    for (const [k, v] of x) if (y.has(k)) walk(v, y.get(k), at(k), opts, out, depth + 1);
    return;
  }
  if (a === 'string') {
    const [x, y] = [normalise(first as string), normalise(second as string)];
    if (x !== y) out.push({ path, kind: 'value', first: JSON.stringify(x), second: JSON.stringify(y) });
  }
  if (a === 'boolean' && first !== second) out.push({ path, kind: 'value', first: String(first), second: String(second) });
}

/** Differences from `first` to `second`, at most MAX_DIFFERENCES. */
export function shapeDifferences(first: unknown, second: unknown, opts: ShapeOptions = {}): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  walk(first, second, '$', opts, out, 0);
  return out.slice(0, MAX_DIFFERENCES);
}

/** Replay's wording: differences from `recorded` to `now`, each `path: what` (`$.data[].id: only in the recording`). */
export function shapeDiff(recorded: unknown, now: unknown): string[] {
  return shapeDifferences(recorded, now).map((d) => {
    switch (d.kind) {
      case 'only-first':
        return `${d.path}: only in the recording`;
      case 'only-second':
        return `${d.path}: only now`;
      case 'emptiness':
        return `${d.path}: ${d.first === 'items' ? 'items in the recording, empty now' : 'empty in the recording, items now'}`;
      default:
        return `${d.path}: ${d.first} in the recording, ${d.second} now`;
    }
  });
}

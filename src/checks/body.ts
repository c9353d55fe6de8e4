// Reading fields of a JSON body that no schema validated yet (an answer whose shape the spec does not
// show, a prerequisite step read before its own check, a webhook payload). Each reader answers
// undefined where the value is not there, as optional chaining on an untyped body would, so a check
// decides what a missing field means. A body that expectSchema validated is typed instead (ResponseOf).

/** True for a JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `keys` (one key per level) inside JSON objects, or undefined where a level is not an object. */
export function field(value: unknown, ...keys: string[]): unknown {
  let cur = value;
  for (const key of keys) {
    if (!isRecord(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** field(), when the value there is a string; otherwise undefined. */
export function stringField(value: unknown, ...keys: string[]): string | undefined {
  const v = field(value, ...keys);
  return typeof v === 'string' ? v : undefined;
}

/** The value as an array, or an empty one when it is not an array. */
export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

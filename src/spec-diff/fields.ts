// The fields of a JSON schema as flat paths (`data[].card_data.format`), each with its type and whether
// it is required, and the difference of two such maps classed as oasdiff does for an API's consumer: in
// an answer, a field removed, retyped or no longer required breaks; in a request, a field added as
// required, retyped or newly required breaks. Additions a consumer may ignore do not.

export type Direction = 'request' | 'response';

export interface FieldShape {
  /** type, enum, format and pattern as one comparable text. */
  type: string;
  required: boolean;
}

export interface FieldChange {
  field: string;
  change: 'added' | 'removed' | 'type-changed' | 'now-required' | 'now-optional';
  breaking: boolean;
  before?: FieldShape;
  after?: FieldShape;
}

interface Schema {
  type?: unknown;
  enum?: unknown;
  format?: unknown;
  pattern?: unknown;
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: unknown;
}

/** Schemas are dereferenced and may nest deeply; past this depth a field is compared as a whole. */
const MAX_DEPTH = 12;

function typeText(s: Schema): string {
  const parts = Object.entries({ type: s.type, enum: s.enum, format: s.format, pattern: s.pattern, const: s.const, nullable: s.nullable });
  return parts.filter(([, v]) => v !== undefined).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ');
}

/** Flat field map of `schema`; `root` is the name of the body itself. */
export function schemaFields(schema: unknown, root = '$'): Map<string, FieldShape> {
  const out = new Map<string, FieldShape>();
  const walk = (s: Schema | undefined, at: string, required: boolean, depth: number, seen: Set<object>) => {
    if (!s || typeof s !== 'object' || seen.has(s) || depth > MAX_DEPTH) return;
    const inner = new Set(seen).add(s);
    const prev = out.get(at);
    const type = [prev?.type, typeText(s)].filter((t) => t).join('; ') || 'any';
    out.set(at, { type, required: (prev?.required ?? false) || required });
    for (const [name, p] of Object.entries(s.properties ?? {})) walk(p, `${at}.${name}`, (s.required ?? []).includes(name), depth + 1, inner);
    if (s.items) walk(s.items, `${at}[]`, true, depth + 1, inner);
    for (const sub of s.allOf ?? []) walk(sub, at, required, depth + 1, inner);
    // A field of one alternative is not required of the answer.
    for (const sub of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) walk(sub, at, false, depth + 1, inner);
  };
  walk(schema as Schema, root, true, 0, new Set());
  return out;
}

/** The field changes between two schemas of one request or answer. */
export function diffFields(before: unknown, after: unknown, direction: Direction): FieldChange[] {
  const a = schemaFields(before);
  const b = schemaFields(after);
  const out: FieldChange[] = [];
  for (const field of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const x = a.get(field);
    const y = b.get(field);
    if (x && !y) out.push({ field, change: 'removed', breaking: direction === 'response', before: x });
    else if (!x && y) out.push({ field, change: 'added', breaking: direction === 'request' && y.required, after: y });
    else if (x && y && x.type !== y.type) out.push({ field, change: 'type-changed', breaking: true, before: x, after: y });
    else if (x && y && x.required !== y.required) {
      const now = y.required ? 'now-required' : 'now-optional';
      out.push({ field, change: now, breaking: direction === 'response' ? now === 'now-optional' : now === 'now-required', before: x, after: y });
    }
  }
  // A field added or removed with its parent is one change: keep the outermost.
  return out.filter((c) => !out.some((p) => p !== c && p.change === c.change && (c.field.startsWith(`${p.field}.`) || c.field.startsWith(`${p.field}[]`))));
}

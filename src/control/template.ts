// Templates of the declarative control adapter: `{{name}}` placeholders in strings, and JSON pointers
// to read a result. A string that is exactly one placeholder takes the value with its type (a number
// stays a number) and an absent value drops the field, so optional inputs need no special syntax; an
// object whose every field was dropped that way is dropped too ({ amount: { value: "{{amount}}" } }
// sends no amount at all when the input is absent).

export type Vars = Record<string, unknown>;

const WHOLE = /^\{\{\s*([\w.-]+)\s*\}\}$/;
const PART = /\{\{\s*([\w.-]+)\s*\}\}/g;

/** Every placeholder name used in a template, with the JSON pointer (relative) where it sits. */
export function placeholders(template: unknown, at = ''): { name: string; pointer: string }[] {
  if (typeof template === 'string') return [...template.matchAll(PART)].map((m) => ({ name: m[1], pointer: at }));
  if (Array.isArray(template)) return template.flatMap((v, i) => placeholders(v, `${at}/${i}`));
  if (template && typeof template === 'object') {
    return Object.entries(template).flatMap(([k, v]) => [...placeholders(k, at), ...placeholders(v, `${at}/${escapePointer(k)}`)]);
  }
  return [];
}

export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Renders a string template; a missing value leaves the string undefined (the caller drops it). */
export function renderString(template: string, vars: Vars): unknown {
  const whole = WHOLE.exec(template);
  if (whole) return vars[whole[1]];
  let missing = false;
  const out = template.replace(PART, (_m, name: string) => {
    const v = vars[name];
    if (v === undefined || v === null) {
      missing = true;
      return '';
    }
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
  return missing ? undefined : out;
}

/**
 * Renders a JSON template: strings through renderString, absent values dropped from objects, and an
 * object that had fields but kept none dropped as well (a literal {} stays).
 */
export function render(template: unknown, vars: Vars): unknown {
  if (typeof template === 'string') return renderString(template, vars);
  if (Array.isArray(template)) return template.map((v) => render(v, vars)).filter((v) => v !== undefined);
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    const entries = Object.entries(template);
    for (const [k, v] of entries) {
      const key = renderString(k, vars);
      const value = render(v, vars);
      if (typeof key === 'string' && value !== undefined) out[key] = value;
    }
    return entries.length > 0 && Object.keys(out).length === 0 ? undefined : out;
  }
  return template;
}

/** RFC 6901 JSON pointer read; undefined when any step is absent. "" is the whole document. */
export function readPointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  let cur: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

// `x-checked-when-present` (spec/openapi.yaml, on a component schema): fields a resource has (section 2)
// that the answer of an operation need not carry (section 4 lists others), e.g. email on user reads.
// The loader refuses a schema that both lists a field here and `required`s it, so the response audit
// (which validates against that schema) and the checks (which ask `model.whenPresent`) read the same
// note: neither can demand a field the model says is checked only when present.

import { ModelError } from '../errors/index.ts';
import type { RawOpenApi, RawSchema } from './raw.ts';

const KEY = 'x-checked-when-present';

/** The when-present fields of a (dereferenced) schema: its own list and those of allOf/oneOf/anyOf parts. */
export function whenPresentOf(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const own = Array.isArray(s[KEY]) ? (s[KEY] as string[]) : [];
  const parts = ['allOf', 'oneOf', 'anyOf'].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]) : []));
  return [...new Set([...own, ...parts.flatMap(whenPresentOf)])];
}

/** Loader cross-check over components.schemas: each listed field is a property and is not required. */
export function checkWhenPresent(openapi: RawOpenApi, rel: string): void {
  const schemas: Record<string, RawSchema> = openapi?.components?.schemas ?? {};
  for (const [name, schema] of Object.entries(schemas)) {
    const list = schema?.[KEY];
    if (list === undefined) continue;
    const pointer = `/components/schemas/${name}/${KEY}`;
    if (!Array.isArray(list) || list.some((f) => typeof f !== 'string')) throw new ModelError(`spec/${rel}`, pointer, 'must be a list of field names');
    for (const field of list as string[]) {
      if (!schema.properties?.[field]) throw new ModelError(`spec/${rel}`, pointer, `names "${field}", which is not a property of ${name}`);
      if (Array.isArray(schema.required) && schema.required.includes(field)) {
        throw new ModelError(`spec/${rel}`, pointer, `names "${field}", which ${name} also lists as required: a field checked only when present cannot be required`);
      }
    }
  }
}

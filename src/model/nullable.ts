// The reading ENDPOINT-RESPONSE-SCHEMA null-when-optional, applied to the schemas of what a server sends
// (responses and webhooks): a field a schema lists but does not require may be absent or null; a field
// it requires is present and not null. Section 2 gives each field a type but never says whether a field
// that does not apply to this answer (recipient_address on a Card recipient) is left out or null, and
// the serializers of common stacks write null (Pydantic, Jackson's default inclusion, System.Text.Json).
// One rewrite of the schema tree, so no check restates it: `required` keeps its meaning of "carries a
// value", and everything else keeps its type when it carries one.

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Keywords that only constrain values of one JSON type, so null passes them as it stands (JSON Schema
 * 2020-12 applies them to their own type only), plus annotations.
 */
const NULL_TRANSPARENT = new Set([
  'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'items', 'prefixItems', 'contains', 'minContains', 'maxContains', 'minItems', 'maxItems', 'uniqueItems', 'unevaluatedItems',
  'properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties',
  'dependentRequired', 'dependentSchemas', 'unevaluatedProperties',
  'description', 'title', 'deprecated', 'examples', 'example', 'default', 'readOnly', 'writeOnly', '$comment',
]);

/** The ajv keyword a required field carries: present is not enough, it holds a value (not null). */
export const NOT_NULL_KEYWORD = 'x-not-null';

/** `schema` that also accepts null, keeping what it says of every other value. */
function orNullOf(schema: unknown, typesOnly: boolean): unknown {
  if (!isNode(schema)) return schema;
  // A named schema (the generator's `title`) stays one type: `Name | null`, not a renamed copy.
  if (typesOnly && typeof schema.title === 'string') return { anyOf: [{ type: 'null' }, schema] };
  const keys = Object.keys(schema).filter((k) => !NULL_TRANSPARENT.has(k) && !k.startsWith('x-'));
  if (keys.length === 0) return schema; // no type: null already passes
  if (keys.every((k) => k === 'type' || k === 'enum')) {
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? undefined : [schema.type];
    return {
      ...schema,
      ...(types ? { type: types.includes('null') ? types : [...types, 'null'] } : {}),
      ...(Array.isArray(schema.enum) && !schema.enum.includes(null) ? { enum: [...schema.enum, null] } : {}),
    };
  }
  return { anyOf: [{ type: 'null' }, schema] };
}

/** `schema` that refuses null: unchanged when its type already does, else marked NOT_NULL_KEYWORD. */
function notNull(schema: unknown): unknown {
  if (schema === undefined) return { [NOT_NULL_KEYWORD]: true };
  if (!isNode(schema)) return schema;
  const t = schema.type;
  if (t !== undefined && !(t === 'null' || (Array.isArray(t) && t.includes('null')))) return schema;
  return { ...schema, [NOT_NULL_KEYWORD]: true };
}

/**
 * The schema of an answer under the reading: a new tree (the input, dereferenced and possibly shared
 * between schemas, is not changed). `not` and `if` are left as they are: widening what they match
 * would narrow the schema around them. `typesOnly` (generators/types.ts): rewrites the tree in place
 * for the TypeScript types, named schemas kept as one type, no null refusal (types cannot say it).
 */
export function nullWhenOptional(schema: unknown, memo = new Map<unknown, unknown>(), typesOnly = false): unknown {
  if (!isNode(schema)) return schema;
  const done = memo.get(schema);
  if (done !== undefined) return done;
  const out: Node = typesOnly ? schema : { ...schema };
  memo.set(schema, out);
  const sub = (s: unknown) => nullWhenOptional(s, memo, typesOnly);
  const orNull = (s: unknown) => orNullOf(s, typesOnly);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  if (isNode(schema.properties) || required.length > 0) {
    const props: Node = {};
    for (const [name, p] of Object.entries(isNode(schema.properties) ? schema.properties : {})) props[name] = required.includes(name) ? sub(p) : orNull(sub(p));
    // A field required here (also by a branch, `then` or `allOf` part, that does not list its type) holds a value.
    if (!typesOnly) for (const name of required) props[name] = notNull(props[name]);
    if (isNode(schema.properties) || !typesOnly) out.properties = props;
  }
  for (const key of ['items', 'additionalProperties', 'then', 'else', 'contains'] as const) if (isNode(schema[key])) out[key] = sub(schema[key]);
  // "carries only" (additionalProperties: false) under the same reading: another field may be there as
  // null (a serializer's shared model with an unset optional field), never with a value.
  if (!typesOnly && schema.additionalProperties === false) out.additionalProperties = { type: 'null' };
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const) if (Array.isArray(schema[key])) out[key] = (schema[key] as unknown[]).map(sub);
  if (isNode(schema.patternProperties)) out.patternProperties = Object.fromEntries(Object.entries(schema.patternProperties).map(([k, v]) => [k, orNull(sub(v))]));
  return out;
}

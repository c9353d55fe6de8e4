// Where a difference sits: on something the spec specifies, or where it is silent. Read from the
// model alone: the operation's response schema for the answer's status (spec/openapi.yaml). A field
// the schema lists is specified; one it does not list (the spec's "other fields: not shown") is not.
// A listed field whose JSON type the schema leaves open ("type not shown"), whose values it does not
// enumerate, or whose presence it checks only when present (x-checked-when-present) is specified
// as a field, silent on that point. Success status codes: the model has only "2XX" (the spec never
// shows one), so 200 against 201 is silent too.

import type { Model, Operation } from '../model/types.ts';
import type { ShapeDifference } from '../replay/index.ts';
import type { DifferenceKind } from './types.ts';

/** The section 7 body field whose value the error rows pin (ErrorBody in spec/openapi.yaml). */
const ERROR_REASON_PATH = '$.error_reason';
const WHEN_PRESENT = 'x-checked-when-present';
const MAX_DEPTH = 16;

/** A (dereferenced) JSON Schema node as the classifier walks it: the keywords it reads, typed. */
type Schema = {
  [keyword: string]: unknown;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  then?: Schema;
  else?: Schema;
  items?: Schema;
  properties?: Record<string, Schema>;
};

export interface Placement {
  silent: boolean;
  why: string;
}

/** The response schema of `op` for `status`: exact code, then `2XX`-style range, then default. */
export function responseSchemaFor(op: Operation, status: number | undefined): { key: string; schema: Schema } | undefined {
  if (status === undefined) return undefined;
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    const schema = op.responseSchemas[key] as Schema | undefined;
    if (schema) return { key, schema };
  }
  return undefined;
}

/** The schema and the alternatives it combines (allOf, anyOf, oneOf, if/then/else): every part that can list a field. */
function expand(nodes: Schema[], depth = 0): Schema[] {
  if (depth > MAX_DEPTH) return nodes;
  return nodes.flatMap((n) => {
    if (!n || typeof n !== 'object') return [];
    const parts = [...(n.allOf ?? []), ...(n.anyOf ?? []), ...(n.oneOf ?? []), ...(n.then ? [n.then] : []), ...(n.else ? [n.else] : [])] as Schema[];
    return [n, ...expand(parts, depth + 1)];
  });
}

/** `$.data[].card_data.format` -> ['data', '[]', 'card_data', 'format']. */
function segments(path: string): string[] {
  return path
    .replace(/^\$/, '')
    .split(/(?=\.|\[\])/)
    .filter(Boolean)
    .map((s) => (s === '[]' ? s : s.replace(/^\./, '')));
}

interface FieldFacts {
  listed: boolean;
  /** The field's presence is checked only when present (x-checked-when-present on its parent). */
  presenceOpen: boolean;
  typeShown: boolean;
  valuesShown: boolean;
}

function factsAt(schema: Schema, path: string): FieldFacts {
  let nodes = expand([schema]);
  let presenceOpen = false;
  for (const seg of segments(path)) {
    if (seg === '[]') nodes = expand(nodes.flatMap((n) => (n.items && typeof n.items === 'object' ? [n.items as Schema] : [])));
    else {
      presenceOpen = nodes.some((n) => { const list = n[WHEN_PRESENT]; return Array.isArray(list) && list.includes(seg); });
      nodes = expand(nodes.flatMap((n) => (n.properties?.[seg] ? [n.properties[seg] as Schema] : [])));
    }
    if (!nodes.length) return { listed: false, presenceOpen, typeShown: false, valuesShown: false };
  }
  return {
    listed: true,
    presenceOpen,
    typeShown: nodes.some((n) => n.type !== undefined || n.enum !== undefined || n.const !== undefined),
    valuesShown: nodes.some((n) => n.enum !== undefined || n.const !== undefined),
  };
}

const silent = (why: string): Placement => ({ silent: true, why });
const specified = (why: string): Placement => ({ silent: false, why });

/** Places a status-code difference. */
export function placeStatus(op: Operation | undefined, a: number, b: number): Placement {
  const shown = (s: number) => !!op && op.responseSchemas[String(s)] !== undefined;
  if (a >= 200 && a < 300 && b >= 200 && b < 300 && !shown(a) && !shown(b)) return silent('the spec shows no success status code (the model has 2XX only)');
  return specified('status code');
}

/** Places a body difference of an answer with `status` to `op` (undefined: the model does not know the call). */
export function placeBody(model: Model, op: Operation | undefined, status: number | undefined, kind: DifferenceKind, d?: ShapeDifference): Placement {
  if (!op) return silent('a call the model does not know (not a spec operation)');
  const found = responseSchemaFor(op, status);
  const where = `${op.operationId} ${found?.key ?? status}`;
  if (!found) return silent(`the model shows no answer body for ${where}`);
  if (kind === 'body') return specified(`the model's response schema for ${where} shows a JSON body`);
  if (kind === 'emptiness') return silent('the spec shows no item counts');
  const facts = factsAt(found.schema, d!.path);
  if (!facts.listed) return silent(`the model's response schema for ${where} does not list this field${kind === 'value' ? ' (values compared by form: kind of id, letter case)' : ''}`);
  if ((kind === 'only-a' || kind === 'only-b') && facts.presenceOpen) return silent(`listed for ${where}, but whether it is returned is not shown (${WHEN_PRESENT})`);
  if (kind === 'type' && !facts.typeShown) return silent(`listed for ${where}, its type not shown`);
  if (kind === 'value') {
    if (d!.path === ERROR_REASON_PATH && status !== undefined && status >= 400) return specified('error reason (section 7)');
    if (!facts.valuesShown) return silent(`listed for ${where}, its values not shown (compared by form: kind of id, letter case)`);
    return specified(`listed for ${where} with its values`);
  }
  return specified(`listed by the model's response schema for ${where}`);
}

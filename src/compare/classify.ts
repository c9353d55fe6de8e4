// Where a difference sits: on something the spec specifies, or where it is silent. Read from the
// model alone: the operation's response schema for the answer's status (spec/openapi.yaml). A field
// the schema lists is specified; one it does not list (the spec's "other fields: not shown") is not.
// A listed field whose JSON type the schema leaves open ("type not shown"), whose values it does not
// enumerate, or whose presence it checks only when present (x-checked-when-present) is specified
// as a field, silent on that point. Success status codes: the model has only "2XX" (the spec never
// shows one), so 200 against 201 is silent too. The values of an error body are fixed by section 7
// where a row or the category table fixes them: error_reason and error_description by the rows that
// can have answered (the step's check's rows at that status, else the operation's), each only when
// every such row shows it (reason: null is a row that names none: the 429 of the token endpoint, the
// wrong SEPA path); error_category.category where the category table has the status.

import type { ErrorRule, Model, Operation } from '../model/types.ts';
import type { ShapeDifference } from '../replay/index.ts';
import type { DifferenceKind } from './types.ts';

/** The section 7 body fields whose values a row shows (ErrorBody in spec/openapi.yaml), by the row's field. */
const ROW_FIELDS: Record<string, 'reason' | 'message'> = { '$.error_reason': 'reason', '$.error_description': 'message' };
const CATEGORY_PATH = '$.error_category.category';
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
  /**
   * The value is a code, not free text, so a difference in its text alone is listed (error_reason:
   * ErrorRateLimited against ErrorRateLimitExceeded), where free-form values are compared by form.
   */
  code?: true;
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

/**
 * The section 7 rows that can have given an error answer of `status` to `op`: those of the step's check
 * (`rules`, the rules it covers) with that status, else every row of `op` with that status.
 */
function rowsFor(model: Model, op: Operation, status: number, rules: readonly string[] | undefined): ErrorRule[] {
  const rows = model.rules.filter((r): r is ErrorRule => r.kind === 'error' && r.status === status);
  const ofCheck = rules ? rows.filter((r) => rules.includes(r.id)) : [];
  return ofCheck.length > 0 ? ofCheck : rows.filter((r) => (r.operations as readonly string[]).includes(op.operationId));
}

/** A value difference in a section 7 body field; undefined for any other field. */
function placeErrorValue(model: Model, op: Operation, status: number, path: string, rules: readonly string[] | undefined): Placement | undefined {
  if (path === CATEGORY_PATH) {
    const category = model.categoryFor(status);
    return category === null ? silent(`section 7 gives no category for HTTP ${status}`) : specified(`section 7 gives ${category} for HTTP ${status}`);
  }
  const field = ROW_FIELDS[path];
  if (!field) return undefined;
  const rows = rowsFor(model, op, status, rules);
  if (rows.length === 0) return { ...silent(`no section 7 row answers HTTP ${status} to ${op.operationId} ("Errors of endpoints other than those above: not shown")`), ...(field === 'reason' ? { code: true as const } : {}) };
  const open = rows.filter((r) => r[field] === null);
  const code = field === 'reason' ? ({ code: true } as const) : {};
  if (open.length > 0) return { ...silent(`section 7 row ${open.map((r) => r.id).join(', ')} shows no ${field} (any is accepted)`), ...code };
  return { ...specified(`section 7 row ${rows.map((r) => r.id).join(', ')} shows the ${field}`), ...code };
}

/**
 * Places a body difference of an answer with `status` to `op` (undefined: the model does not know the
 * call). `rules`: the rules of the check that made the step, which name the section 7 rows it expects.
 */
export function placeBody(model: Model, op: Operation | undefined, status: number | undefined, kind: DifferenceKind, d?: ShapeDifference, rules?: readonly string[]): Placement {
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
    const error = status !== undefined && status >= 400 ? placeErrorValue(model, op, status, d!.path, rules) : undefined;
    if (error) return error;
    if (!facts.valuesShown) return silent(`listed for ${where}, its values not shown (compared by form: kind of id, letter case)`);
    return specified(`listed for ${where} with its values`);
  }
  return specified(`listed by the model's response schema for ${where}`);
}

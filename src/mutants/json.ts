// JSON values as the mutants edit them: bodies the reference or the proxy parsed, webhook payloads
// and token claims. Edits change a body on purpose into shapes the spec forbids, so the generated
// response types do not describe them; what is known is that they are JSON. A missing key reads as
// undefined, so JsonObject values include it.

import { arrayOf, isRecord } from '../checks/body.ts';

export type JsonPrimitive = null | boolean | number | string;
export type Json = JsonPrimitive | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json | undefined;
}

/** The JSON value of `text`, undefined when empty or not JSON. */
export function parseJson(text: string): Json | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** A JSON object (not an array, not null): the checks' isRecord, typed for parsed JSON. */
export const isObject = (v: Json | undefined): v is JsonObject => isRecord(v);

/** `v` when it is a JSON object, else undefined (for `asRecord(b)?.key` where the body may be anything). */
export const asRecord = (v: Json | undefined): JsonObject | undefined => (isObject(v) ? v : undefined);

/** Member `key` of `v` when `v` is an object (what `v?.[key]` reads on a parsed JSON value). */
export const field = (v: Json | undefined, key: string): Json | undefined => asRecord(v)?.[key];

/** `v` when it is an array, else no items (the checks' arrayOf, typed for parsed JSON). */
export const items = (v: Json | undefined): Json[] => arrayOf(v) as Json[];

/** An object carrying `key` (any JSON value, null included). */
export function has<K extends string>(o: Json | undefined, key: K): o is JsonObject & { [P in K]: Json } {
  return isObject(o) && o[key] !== undefined;
}

// Request headers and response shapes shared by every driver: header maps merged left to right,
// the Authorization and X-Chain-Id headers, and the items of list answers.

import { arrayOf, field } from '../../src/checks/body.ts';
import type { CheckContext } from '../../src/checks/types.ts';
import { operationLabel } from '../../src/model/index.ts';
import type { OperationId } from '../../src/model/types.ts';

/** Merges header maps left to right; an undefined value removes the header set by an earlier part. */
export function headers(...parts: Record<string, string | undefined>[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of parts) {
    for (const [k, v] of Object.entries(p)) {
      if (v === undefined) delete out[k];
      else out[k] = v;
    }
  }
  return out;
}

/** X-Chain-Id (name from the model's section 5 auth facts), the profile's chain by default. */
export function chainHeader(ctx: CheckContext, value: string = ctx.profile.chain_id): Record<string, string> {
  return { [ctx.model.auth.chain_header]: value };
}

/** "METHOD /path" of operation `op` as the model holds it: the label of a step or a message about it. */
export function opLabel(ctx: Pick<CheckContext, 'model'>, op: OperationId): string {
  return operationLabel(ctx.model.operation(op));
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** Wallet list items: a bare array, or wrapped in data / wallets. */
export function walletItems(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  for (const k of ['data', 'wallets', 'items']) {
    const items = field(json, k);
    if (Array.isArray(items)) return items;
  }
  return [];
}

/** Items of a list answer: a bare array or { data: [...] }. */
export function listItems(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  return arrayOf(field(json, 'data'));
}

/** Content-Type of a header map names JSON (parameters such as charset allowed). */
export function isJsonContentTypeOf(h: Record<string, string>): boolean {
  const v = Object.entries(h).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  return typeof v === 'string' && v.split(';')[0].trim().toLowerCase() === 'application/json';
}

/** True when some string or number anywhere in `body` equals `value` (strings compared case-insensitively). */
export function mentionsDeep(body: unknown, value: string): boolean {
  if (!value) return false;
  const v = value.toLowerCase();
  const seen = new Set<unknown>();
  const walk = (o: unknown): boolean => {
    if (typeof o === 'string') return o.toLowerCase() === v;
    if (typeof o === 'number') return String(o) === value;
    if (o === null || typeof o !== 'object' || seen.has(o)) return false;
    seen.add(o);
    return (Array.isArray(o) ? o : Object.values(o)).some(walk);
  };
  return walk(body);
}

/** Both names present with the same value (and equal to `expected` when given; addresses compare case-insensitively). */
export function aliasProblem(obj: unknown, oldName: string, newName: string, expected?: string): string | undefined {
  if (obj === null || typeof obj !== 'object') return `not an object: ${JSON.stringify(obj)}`;
  const o = obj as Record<string, unknown>;
  const has = (k: string) => Object.hasOwn(o, k) && o[k] !== undefined;
  if (!has(newName)) return `${newName} is missing (deprecated ${oldName} = ${JSON.stringify(o[oldName])})`;
  if (!has(oldName)) return `deprecated ${oldName} is missing (responses keep both names, section 9.3); ${newName} = ${JSON.stringify(o[newName])}`;
  if (o[oldName] !== o[newName]) return `${oldName} ${JSON.stringify(o[oldName])} differs from ${newName} ${JSON.stringify(o[newName])}`;
  const value = o[newName];
  if (expected !== undefined && (typeof value !== 'string' || value.toLowerCase() !== expected.toLowerCase())) {
    return `${newName} ${JSON.stringify(value)}, expected ${JSON.stringify(expected)}`;
  }
  return undefined;
}

/** Polls `fn` until it returns a value, `timeoutMs` passes, or the signal aborts. */
export async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 250, signal?: AbortSignal): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() >= end) return undefined;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

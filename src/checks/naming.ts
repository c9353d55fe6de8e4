// The section 9.2 field naming convention as a property of a JSON payload: the names the rule's facts
// give (VERSION-FIELD-NAMING) spelled as written, string-valued, user_id a UUID. Judged on every webhook
// payload (webhooks.payloads.field-naming) and on every success answer the run receives (audit.ts).

import type { Model } from '../model/types.ts';

/** The five convention names and those that are UUIDs, as VERSION-FIELD-NAMING's facts give them. */
export interface NamingFacts {
  names?: unknown;
  uuid?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Deepest level walked: payloads are small, and a cycle cannot come out of JSON.parse. */
const MAX_DEPTH = 32;

/** A key with case and separators removed: userAddress, User-Address and user_address all read useraddress. */
const squash = (k: string) => k.toLowerCase().replace(/[^a-z0-9]/g, '');

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export interface NamingFindings {
  /** A name spelled another way with no correctly spelled twin, a name that is not a string, a user_id not a UUID. */
  problems: string[];
  /** A name spelled another way beside the name as written (reading convention-spelling: an extra field, warned). */
  twins: string[];
}

/** The facts made ready once per facts object: every answer of a run is judged against the same ones. */
interface Matcher {
  bySquash: Map<string, string>;
  uuid: Set<string>;
}
const matchers = new WeakMap<object, Matcher>();

function matcherOf(facts: NamingFacts | undefined): Matcher {
  let m = facts ? matchers.get(facts) : undefined;
  if (m) return m;
  const names = strings(facts?.names);
  if (names.length === 0) throw new Error('spec/rules/general.yaml: VERSION-FIELD-NAMING has no facts.names');
  m = { bySquash: new Map(names.map((n) => [squash(n), n])), uuid: new Set(strings(facts?.uuid)) };
  if (facts) matchers.set(facts, m);
  return m;
}

/** Keys squashed once: the same few dozen keys come back in every answer (bounded, so a hostile body cannot grow it). */
const squashed = new Map<string, string>();
function squashOf(k: string): string {
  let v = squashed.get(k);
  if (v === undefined) {
    v = squash(k);
    if (squashed.size < 4096) squashed.set(k, v);
  }
  return v;
}

/**
 * How a payload keeps the naming convention: a key that is one of the names spelled another way (case
 * or separators) in an object without the name as written is a renamed field; beside it, a twin. A
 * name whose value is neither a string nor null (null: reading null-when-optional), or a UUID name
 * whose string is not a UUID, is a problem. Other keys are free. Walked as eachObject walks (objects
 * before their children, to MAX_DEPTH); the location (`$.a.b[0]`) is spelled only for a finding.
 */
export function namingFindings(body: unknown, facts: NamingFacts | undefined): NamingFindings {
  const { bySquash, uuid } = matcherOf(facts);
  const out: NamingFindings = { problems: [], twins: [] };
  const path: (string | number)[] = [];
  const at = () => path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : `${s}.${p}`), '$');
  const walk = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(v[i], depth + 1);
        path.pop();
      }
      return;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    for (const k of keys) {
      const name = bySquash.get(squashOf(k));
      if (name === undefined) continue;
      const x = o[k];
      if (k !== name) (Object.hasOwn(o, name) ? out.twins : out.problems).push(`${at()}.${k} is ${name} spelled another way${Object.hasOwn(o, name) ? ` (beside ${name})` : ''}`);
      else if (x !== null && x !== undefined && typeof x !== 'string') out.problems.push(`${at()}.${k} is ${JSON.stringify(x).slice(0, 60)}, not a string`);
      else if (typeof x === 'string' && uuid.has(k) && !UUID.test(x)) out.problems.push(`${at()}.${k} ${JSON.stringify(x)} is not a UUID`);
    }
    for (const k of keys) {
      path.push(k);
      walk(o[k], depth + 1);
      path.pop();
    }
  };
  walk(body, 0);
  return out;
}

/** The naming problems of a payload (renamed fields, wrong types); empty when it keeps the convention. */
export function namingProblems(body: unknown, facts: NamingFacts | undefined): string[] {
  return namingFindings(body, facts).problems;
}

const NONE: readonly string[] = Object.freeze([]);
/** Distinct keys whose reading a compiled check remembers (a server's payloads use few; a hostile one many). */
const KEYS_KEPT = 4096;

/**
 * namingProblems compiled once for one facts object, for the audit of every answer (a load run judges
 * thousands a second): the walk builds no locations, lists or squashed keys while the payload keeps
 * the convention, and remembers each key's reading. The first key that may break it (another spelling,
 * a wrong type, a user_id not a UUID) hands the payload to namingFindings, whose problems (and wording)
 * are the answer: the walk only proves a payload clean, never judges one.
 */
export function namingCheck(facts: NamingFacts | undefined): (body: unknown) => readonly string[] {
  const names = strings(facts?.names);
  if (names.length === 0) throw new Error('spec/rules/general.yaml: VERSION-FIELD-NAMING has no facts.names');
  const uuid = new Set(strings(facts?.uuid));
  const bySquash = new Map(names.map((n) => [squash(n), n]));
  // 0: a key the convention leaves free; 1: a name as written; 2: a UUID name as written; 3: a name spelled another way.
  const kinds = new Map<string, number>();
  const kindOf = (k: string): number => {
    let v = kinds.get(k);
    if (v === undefined) {
      const name = bySquash.get(squash(k));
      v = name === undefined ? 0 : name !== k ? 3 : uuid.has(k) ? 2 : 1;
      if (kinds.size < KEYS_KEPT) kinds.set(k, v);
    }
    return v;
  };
  // The last UUID value found well formed: a run's answers carry the same user_id again and again.
  let lastUuid = '';
  const isUuid = (x: string) => {
    if (x === lastUuid) return true;
    if (!UUID.test(x)) return false;
    lastUuid = x;
    return true;
  };
  const clean = (v: unknown, depth: number): boolean => {
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (!clean(v[i], depth + 1)) return false;
      return true;
    }
    const o = v as Record<string, unknown>;
    // for-in reads every key Object.entries does (and inherited enumerable ones): never fewer.
    for (const k in o) {
      const x = o[k];
      const kind = kindOf(k);
      if (kind === 3) return false;
      if (kind !== 0 && x !== null && x !== undefined && (typeof x !== 'string' || (kind === 2 && !isUuid(x)))) return false;
      if (typeof x === 'object' && x !== null && !clean(x, depth + 1)) return false;
    }
    return true;
  };
  return (body) => (clean(body, 0) ? NONE : namingFindings(body, facts).problems);
}


/** Walks every object of a JSON value with its location (`$.a.b[0]`), to `MAX_DEPTH`. */
export function eachObject(body: unknown, visit: (o: Record<string, unknown>, at: string, depth: number) => void): void {
  const walk = (v: unknown, at: string, depth: number): void => {
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return;
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}[${i}]`, depth + 1));
    const o = v as Record<string, unknown>;
    visit(o, at, depth);
    for (const [k, x] of Object.entries(o)) walk(x, `${at}.${k}`, depth + 1);
  };
  walk(body, '$', 0);
}


/** VERSION-FIELD-NAMING's facts from the model; undefined for a model without the rule (another --spec, a stand-in model). */
export function namingFactsOf(model: Partial<Pick<Model, 'isRuleId' | 'rule'>>): NamingFacts | undefined {
  if (typeof model.isRuleId !== 'function' || typeof model.rule !== 'function' || !model.isRuleId('VERSION-FIELD-NAMING')) return undefined;
  return (model.rule('VERSION-FIELD-NAMING') as { facts?: NamingFacts }).facts;
}

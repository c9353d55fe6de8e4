// What changed between two spec/ directories, classed: rules added, removed or changed (error rows
// flagged), operations (location, authentication, parameters, request and answer fields by status),
// control operations, webhook payloads, and what is left in a changed file that none of those explains
// (unclassified: then no verdict can be trusted to carry over). Breaking follows oasdiff's reading
// for the consumer of the API (fields.ts); a rule change is breaking unless only its prose changed.

import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { loadModel } from '../model/index.ts';
import type { Model, Operation } from '../model/types.ts';
import type { RawOpenApi } from '../model/raw.ts';
import { diffFields, type Direction, type FieldChange } from './fields.ts';

export type Change = 'added' | 'removed' | 'changed';

export interface RuleChange {
  id: string;
  side: 'server' | 'client';
  change: Change;
  /** A section 7 error row (kind error). */
  errorRow: boolean;
  /** Keys of the rule that differ (changed only). */
  keys?: string[];
  breaking: boolean;
}

/** What part of an operation a change touches: which checks it can reach follows from it (impact.ts). */
export type OperationPart = 'location' | 'auth' | 'safety' | 'parameters' | 'request' | 'success' | 'error';

export interface OperationChange {
  operationId: string;
  change: Change;
  parts: OperationPart[];
  /** One line per change that is not a field (method, path, x-auth, a parameter, a status). */
  details: string[];
  /** Field changes, `where` naming the request or the status of the answer. */
  fields: (FieldChange & { where: string })[];
  breaking: boolean;
}

export interface NamedChange {
  id: string;
  change: Change;
  fields?: FieldChange[];
  breaking: boolean;
}

export interface FileChange {
  file: string;
  change: Change;
  /** Every difference of the file is one of the classed changes (or the file holds no spec fact). */
  classified: boolean;
  note?: string;
}

export interface SpecDiff {
  old: string;
  new: string;
  rules: RuleChange[];
  operations: OperationChange[];
  control: NamedChange[];
  webhooks: NamedChange[];
  files: FileChange[];
  breaking: number;
}

/** Keys of a rule that are prose: changing them changes no check's verdict. */
const PROSE = new Set(['summary', 'readings', 'unspecified', 'loose', 'untestable_reason', 'section', 'quote', 'cites']);

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

function diffKeys(a: Record<string, unknown>, b: Record<string, unknown>, skip: ReadonlySet<string>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !skip.has(k) && stable(a[k]) !== stable(b[k])).sort();
}

function diffRules(a: Model, b: Model): RuleChange[] {
  const out: RuleChange[] = [];
  const sides = [
    ['server', new Map(a.rules.map((r) => [r.id as string, r as unknown as Record<string, unknown>])), new Map(b.rules.map((r) => [r.id as string, r as unknown as Record<string, unknown>]))],
    ['client', new Map(a.clientRules.map((r) => [r.id as string, r as unknown as Record<string, unknown>])), new Map(b.clientRules.map((r) => [r.id as string, r as unknown as Record<string, unknown>]))],
  ] as const;
  for (const [side, before, after] of sides) {
    for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
      const x = before.get(id);
      const y = after.get(id);
      const errorRow = (y ?? x)?.kind === 'error';
      // A rule removed relaxes the spec; one added is a new requirement.
      if (!y) out.push({ id, side, change: 'removed', errorRow, breaking: false });
      else if (!x) out.push({ id, side, change: 'added', errorRow, breaking: true });
      else {
        const keys = diffKeys(x, y, new Set(['source']));
        if (keys.length) out.push({ id, side, change: 'changed', errorRow, keys, breaking: keys.some((k) => !PROSE.has(k)) });
      }
    }
  }
  return out;
}

function responseOf(op: Operation, status: string): unknown {
  return op.responseSchemas[status];
}

function diffOperation(a: Model, b: Model, x: Operation, y: Operation): OperationChange | undefined {
  const parts = new Set<OperationPart>();
  const details: string[] = [];
  const fields: OperationChange['fields'] = [];
  let breaking = false;
  const note = (part: OperationPart, line: string, breaks: boolean) => {
    parts.add(part);
    details.push(line);
    breaking ||= breaks;
  };
  if (x.method !== y.method || x.path !== y.path || x.server !== y.server || x.pathUnspecified !== y.pathUnspecified) {
    note('location', `${x.method.toUpperCase()} ${x.path} -> ${y.method.toUpperCase()} ${y.path}`, true);
  }
  const lost = x.auth.filter((m) => !y.auth.includes(m));
  if (stable([...x.auth].sort()) !== stable([...y.auth].sort()) || x.authUnspecified !== y.authUnspecified) note('auth', `x-auth [${x.auth.join(', ')}] -> [${y.auth.join(', ')}]`, lost.length > 0);
  if (x.userScoped !== y.userScoped) note('auth', `x-user-scoped ${x.userScoped} -> ${y.userScoped}`, y.userScoped);
  if (x.mutates !== y.mutates || x.movesMoney !== y.movesMoney) note('safety', `x-mutates ${x.mutates} -> ${y.mutates}, x-moves-money ${x.movesMoney} -> ${y.movesMoney}`, false);
  const params = (op: Operation) => new Map(op.parameters.map((p) => [`${p.in}:${p.name.toLowerCase()}`, p]));
  const pa = params(x);
  const pb = params(y);
  for (const k of [...new Set([...pa.keys(), ...pb.keys()])].sort()) {
    const p = pa.get(k);
    const q = pb.get(k);
    if (stable(p) === stable(q)) continue;
    note('parameters', `parameter ${k}: ${p ? (p.required ? 'required' : 'optional') : 'absent'} -> ${q ? (q.required ? 'required' : 'optional') : 'absent'}`, !!q?.required && (!p?.required || stable(p) !== stable(q)));
  }
  const push = (where: string, part: OperationPart, before: unknown, after: unknown, direction: Direction) => {
    for (const f of diffFields(before, after, direction)) {
      fields.push({ ...f, where });
      parts.add(part);
      breaking ||= f.breaking;
    }
  };
  push('request', 'request', x.requestSchema, y.requestSchema, 'request');
  for (const status of [...new Set([...Object.keys(x.responseSchemas), ...Object.keys(y.responseSchemas)])].sort()) {
    const part: OperationPart = status.startsWith('2') ? 'success' : 'error';
    const before = responseOf(x, status);
    const after = responseOf(y, status);
    if (!before) note(part, `answer ${status} added`, false);
    else if (!after) note(part, `answer ${status} removed`, true);
    else push(status, part, before, after, 'response');
  }
  const wa = a.whenPresent(x.operationId);
  const wb = b.whenPresent(y.operationId);
  if (stable(wa) !== stable(wb)) note('success', `x-checked-when-present [${wa.join(', ')}] -> [${wb.join(', ')}]`, wb.some((f) => !wa.includes(f)));
  if (!parts.size) return undefined;
  return { operationId: x.operationId, change: 'changed', parts: [...parts].sort(), details, fields, breaking };
}

function diffOperations(a: Model, b: Model): OperationChange[] {
  const out: OperationChange[] = [];
  for (const id of [...new Set([...a.operations.keys(), ...b.operations.keys()])].sort()) {
    const x = a.operations.get(id);
    const y = b.operations.get(id);
    const all: OperationPart[] = ['location', 'auth', 'request', 'success', 'error'];
    if (!y) out.push({ operationId: id, change: 'removed', parts: all, details: ['operation removed'], fields: [], breaking: true });
    else if (!x) out.push({ operationId: id, change: 'added', parts: all, details: ['operation added'], fields: [], breaking: false });
    else {
      const c = diffOperation(a, b, x, y);
      if (c) out.push(c);
    }
  }
  return out;
}

/** operationId -> the operation object of an OpenAPI document's paths (dereferenced). */
function operationsById(doc: RawOpenApi): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item ?? {}) as { operationId?: string }[]) if (op && typeof op === 'object' && typeof op.operationId === 'string') out.set(op.operationId, op);
  }
  return out;
}

function diffNamed(before: Map<string, unknown>, after: Map<string, unknown>, bodyOf?: (v: unknown) => unknown): NamedChange[] {
  const out: NamedChange[] = [];
  for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const x = before.get(id);
    const y = after.get(id);
    if (x === undefined) out.push({ id, change: 'added', breaking: false });
    else if (y === undefined) out.push({ id, change: 'removed', breaking: true });
    else if (stable(x) !== stable(y)) {
      const fields = bodyOf ? diffFields(bodyOf(x), bodyOf(y), 'response') : undefined;
      out.push({ id, change: 'changed', ...(fields ? { fields } : {}), breaking: fields ? fields.some((f) => f.breaking) || fields.length === 0 : true });
    }
  }
  return out;
}

const webhookBody = (v: unknown) => (v as { post?: { requestBody?: { content?: Record<string, { schema?: unknown }> } } }).post?.requestBody?.content?.['application/json']?.schema;

async function files(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await files(dir, r)));
    else out.push(r);
  }
  return out.sort();
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every file of a spec/ directory with its sha256 (the form certificate.json's spec.files has). */
export async function specFiles(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await files(dir)) out[f] = sha(await readFile(path.join(dir, f)));
  return out;
}

/**
 * A spec file with everything the classed changes cover taken out: rule definitions (any object whose
 * id is a rule id of either model), paths (operations, control operations), components (reached through
 * the operations) and webhooks. What remains differing is a change no class explains.
 */
function residue(doc: unknown, ruleIds: ReadonlySet<string>): unknown {
  const strip = (v: unknown, depth: number): unknown => {
    if (Array.isArray(v)) return v.filter((x) => !(x && typeof x === 'object' && ruleIds.has((x as { id?: string }).id ?? ''))).map((x) => strip(x, depth + 1));
    if (!v || typeof v !== 'object') return v;
    if (ruleIds.has((v as { id?: string }).id ?? '')) return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (depth === 0 && ['paths', 'components', 'webhooks', 'x-unspecified-webhooks'].includes(k)) continue;
      out[k] = strip(x, depth + 1);
    }
    return out;
  };
  return strip(doc, 0);
}

async function parsed(dir: string, file: string): Promise<unknown> {
  const text = await readFile(path.join(dir, file), 'utf8');
  return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
}

/** Files of spec/ no check's verdict depends on: formats of the tool's own files, and check placement. */
const NO_VERDICT = /^(schemas\/|placement\.yaml$)/;

async function diffFiles(oldDir: string, newDir: string, a: Model, b: Model): Promise<FileChange[]> {
  const [fa, fb] = await Promise.all([specFiles(oldDir), specFiles(newDir)]);
  const ruleIds = new Set<string>([...a.rules, ...b.rules, ...a.clientRules, ...b.clientRules].map((r) => r.id));
  const out: FileChange[] = [];
  for (const file of [...new Set([...Object.keys(fa), ...Object.keys(fb)])].sort()) {
    if (fa[file] === fb[file]) continue;
    const change: Change = !fa[file] ? 'added' : !fb[file] ? 'removed' : 'changed';
    if (NO_VERDICT.test(file)) {
      out.push({ file, change, classified: true, note: 'no verdict depends on it (a format of the tool or the placement of checks)' });
      continue;
    }
    if (change !== 'changed' || !/\.(ya?ml|json)$/.test(file)) {
      out.push({ file, change, classified: false, note: 'a spec file added, removed or not YAML/JSON' });
      continue;
    }
    const same = stable(residue(await parsed(oldDir, file), ruleIds)) === stable(residue(await parsed(newDir, file), ruleIds));
    out.push({ file, change, classified: same, ...(same ? {} : { note: 'changes outside rules, operations and webhooks (facts such as auth, categories or limits): no verdict can be trusted to carry over' }) });
  }
  return out;
}

/** The classed changes from the spec in `oldDir` to the one in `newDir` (their models, when loaded already). */
export async function specDiff(oldDir: string, newDir: string, models?: { old: Model; new: Model }): Promise<SpecDiff> {
  const [a, b] = models ? [models.old, models.new] : await Promise.all([loadModel(oldDir), loadModel(newDir)]);
  const rules = diffRules(a, b);
  const operations = diffOperations(a, b);
  const control = diffNamed(operationsById(a.control), operationsById(b.control));
  const hooks = (m: Model) => new Map(Object.entries(m.openapi.webhooks ?? {}).filter(([, v]) => v !== undefined) as [string, unknown][]);
  const webhooks = diffNamed(hooks(a), hooks(b), webhookBody);
  const fileChanges = await diffFiles(oldDir, newDir, a, b);
  const breaking = [...rules, ...operations, ...control, ...webhooks].filter((c) => c.breaking).length;
  return { old: oldDir, new: newDir, rules, operations, control, webhooks, files: fileChanges, breaking };
}

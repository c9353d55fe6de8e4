// The declarative control adapter: a YAML (or JSON) file mapping control operations onto a vendor's
// sandbox-simulation calls (spec/schemas/control-adapter.schema.json). Validated once at load; any
// problem is a ControlAdapterError naming the file, the JSON pointer and what is wrong.

import type { ErrorObject } from 'ajv';
import type { HttpClient } from '../checks/types.ts';
import type { Model } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { readInputFile, yamlLib } from '../input/index.ts';
import { schemaFileValidator } from '../schemas/index.ts';
import { controlOperations, type ControlOperation } from './operations.ts';
import { checkSteps, isSuccess, renderCall, runSteps, type AdapterStep, type TemplatedCall } from './file-steps.ts';
import { escapePointer, placeholders, readPointer, renderString, type Vars } from './template.ts';
import { ControlAdapterError, controlJson, type ControlAdapter, type ControlAnswer, type ControlInput } from './types.ts';

/** One control operation: a templated call (as its steps are), its value maps and what its answer yields. */
export interface AdapterOperation extends TemplatedCall {
  values?: Record<string, Record<string, string | number | boolean>>;
  result?: string | Record<string, string>;
  /** Calls made first, in order, whose saved answers feed this operation's templates (file-steps.ts). */
  steps?: AdapterStep[];
}

export interface AdapterFile {
  version: 1;
  name?: string;
  base_url?: string;
  headers?: Record<string, string>;
  operations: Record<string, AdapterOperation>;
}

/** spec/schemas/control-adapter.schema.json */
export const ADAPTER_SCHEMA_FILE = 'control-adapter.schema.json';

function validate(raw: unknown): ErrorObject | undefined {
  const validator = schemaFileValidator(ADAPTER_SCHEMA_FILE);
  return validator(raw) ? undefined : (validator.errors?.[0] ?? undefined);
}

/** One ajv error as pointer + problem, the pointer at the offending member where ajv knows it. */
function explain(err: ErrorObject): { pointer: string; problem: string } {
  const p: Record<string, unknown> = err.params;
  switch (err.keyword) {
    case 'additionalProperties':
      return { pointer: `${err.instancePath}/${escapePointer(String(p.additionalProperty))}`, problem: 'unknown field' };
    case 'required':
      return { pointer: err.instancePath, problem: `${p.missingProperty} is required` };
    case 'const':
      return { pointer: err.instancePath, problem: `must be ${JSON.stringify(p.allowedValue)}` };
    case 'propertyNames':
      return { pointer: `${err.instancePath}/${escapePointer(String(p.propertyName))}`, problem: 'is not an operation id' };
    default:
      return { pointer: err.instancePath, problem: err.message ?? 'is invalid' };
  }
}

const GLOBAL_VARS = ['profile.base_url', 'profile.chain_id', 'profile.client_id', 's2s_token'];

/** Checks what the schema cannot: operation ids known to spec/control.yaml, placeholders that exist. */
function checkAgainstModel(file: string, doc: AdapterFile, ops: Map<string, ControlOperation>): void {
  const isVar = (name: string, op?: ControlOperation, saved: string[] = []) =>
    GLOBAL_VARS.includes(name) || /^env\.[A-Za-z_][A-Za-z0-9_]*$/.test(name) || (op ? [...op.pathParams, ...op.bodyFields].includes(name) : false) || saved.includes(name);
  const checkVars = (template: unknown, at: string, op?: ControlOperation, saved: string[] = []) => {
    for (const { name, pointer } of placeholders(template)) {
      if (!isVar(name, op, saved)) {
        const inputs = op ? [...op.pathParams, ...op.bodyFields, ...saved] : [];
        throw new ControlAdapterError(file, `${at}${pointer}`, `unknown placeholder {{${name}}}; known: ${[...inputs, ...GLOBAL_VARS, 'env.NAME'].join(', ')}`);
      }
    }
  };
  checkVars(doc.base_url, '/base_url');
  checkVars(doc.headers, '/headers');
  for (const [id, spec] of Object.entries(doc.operations)) {
    const at = `/operations/${escapePointer(id)}`;
    const op = ops.get(id);
    if (!op) throw new ControlAdapterError(file, at, `unknown control operation ${id}; spec/control.yaml has ${[...ops.keys()].join(', ')}`);
    for (const [where, call] of [['', spec] as const, ...(spec.steps ?? []).map((s, i) => [`/steps/${i}`, s] as const)]) {
      if (!doc.base_url && !/^(https?:\/\/|\{\{)/.test(call.path)) {
        throw new ControlAdapterError(file, `${at}${where}/path`, 'a relative path needs base_url at the top of the file (or give an absolute URL)');
      }
    }
    const saved = checkSteps(file, at, spec.steps ?? [], (t, where, before) => checkVars(t, where, op, before), (name) => isVar(name, op));
    checkVars(spec.path, `${at}/path`, op, saved);
    checkVars(spec.query, `${at}/query`, op, saved);
    checkVars(spec.headers, `${at}/headers`, op, saved);
    checkVars(spec.body, `${at}/body`, op, saved);
    for (const input of Object.keys(spec.values ?? {})) {
      if (!isVar(input, op)) throw new ControlAdapterError(file, `${at}/values/${escapePointer(input)}`, `${input} is not an input of ${id}`);
    }
    if (spec.result && typeof spec.result === 'object') {
      for (const field of Object.keys(spec.result)) {
        if (op.resultFields.length && !op.resultFields.includes(field)) {
          throw new ControlAdapterError(file, `${at}/result/${escapePointer(field)}`, `${id} has no result field ${field}; spec/control.yaml gives ${op.resultFields.join(', ')}`);
        }
      }
    }
  }
}

/** Parses and validates an adapter file's text; `file` names it in errors. */
export function parseAdapter(file: string, text: string, model: Pick<Model, 'control'>): AdapterFile {
  const yaml = yamlLib();
  const lines = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { prettyErrors: false, lineCounter: lines });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const at = lines.linePos(e.pos[0]);
    const where = ` (line ${at.line}, column ${at.col})`;
    throw new ControlAdapterError(file, '', `not valid YAML${where}: ${e.message.split('\n')[0]}`);
  }
  return adapterFrom(file, doc.toJS(), model);
}

/** The parsed adapter, checked against its schema and the control operations of the model. */
function adapterFrom(file: string, raw: unknown, model: Pick<Model, 'control'>): AdapterFile {
  const err = validate(raw);
  if (err) {
    const { pointer, problem } = explain(err);
    throw new ControlAdapterError(file, pointer, problem);
  }
  const parsed = raw as AdapterFile;
  checkAgainstModel(file, parsed, controlOperations(model));
  return parsed;
}

export interface FileAdapterOptions {
  profile: Pick<ResolvedProfile, 'base_url' | 'chain_id' | 'clients'>;
  env?: Record<string, string | undefined>;
  /** Called with each env value the adapter uses, so the run masks it. */
  onSecret?: (value: string) => void;
  /** Mints the partner's S2S token for `{{s2s_token}}` (see token.ts). */
  s2sToken?: (http: HttpClient) => Promise<string>;
}

/** Reads, validates and builds an adapter from a file. */
export async function loadAdapterFile(file: string, model: Pick<Model, 'control'>, opts: FileAdapterOptions): Promise<ControlAdapter> {
  const doc = await readInputFile(file, { what: 'control adapter', format: 'yaml', error: (f, pointer, problem, line) => new ControlAdapterError(f, pointer ?? '', problem, line) });
  try {
    return fileAdapter(file, adapterFrom(file, doc.value, model), opts);
  } catch (err) {
    throw doc.locate(err);
  }
}

function globalVars(opts: FileAdapterOptions, used: string[]): Vars {
  const env = opts.env ?? process.env;
  const vars: Vars = {
    'profile.base_url': opts.profile.base_url,
    'profile.chain_id': opts.profile.chain_id,
    'profile.client_id': opts.profile.clients[0]?.client_id,
  };
  for (const name of used) {
    if (!name.startsWith('env.')) continue;
    const v = env[name.slice(4)];
    if (v !== undefined) {
      vars[name] = v;
      opts.onSecret?.(v);
    }
  }
  return vars;
}

export function fileAdapter(file: string, doc: AdapterFile, opts: FileAdapterOptions): ControlAdapter {
  const used = placeholders(doc).map((p) => p.name);
  const globals = globalVars(opts, used);
  const base = doc.base_url === undefined ? undefined : String(renderString(doc.base_url, globals) ?? '').replace(/\/+$/, '');
  return {
    kind: 'file',
    source: `control adapter file ${file}`,
    operations: () => Object.keys(doc.operations),
    supports: (id) => Object.hasOwn(doc.operations, id),
    async call(http: HttpClient, id: string, input: ControlInput): Promise<ControlAnswer> {
      const spec = doc.operations[id];
      if (!spec) throw new Error(`control adapter ${file} does not map ${id}`);
      const vars: Vars = { ...globals };
      if (used.includes('s2s_token')) {
        if (!opts.s2sToken) throw new Error(`control adapter ${file} uses {{s2s_token}} but no token source was given`);
        vars.s2s_token = await opts.s2sToken(http);
      }
      for (const [k, v] of Object.entries({ ...input.body, ...input.params })) {
        const renamed = spec.values?.[k] && Object.hasOwn(spec.values[k], String(v)) ? spec.values[k][String(v)] : v;
        vars[k] = renamed;
      }
      if (spec.steps) {
        const failed = await runSteps(http, `control adapter ${file}: ${id}`, spec.steps, vars, base, doc.headers);
        if (failed) return failed;
      }
      const req = renderCall(spec, vars, base, doc.headers);
      if (!req) throw new Error(`control adapter ${file}: ${id}.path needs an input that was not given`);
      const res = await http.send(req);
      const ok = isSuccess(spec, res.status);
      let json = controlJson(res.json);
      if (ok && typeof spec.result === 'string') json = controlJson(readPointer(res.json, spec.result));
      else if (ok && spec.result && typeof spec.result === 'object') {
        const picked: Record<string, unknown> = {};
        for (const [field, pointer] of Object.entries(spec.result)) {
          const v = readPointer(res.json, pointer);
          if (v !== undefined) picked[field] = v;
        }
        json = picked;
      }
      return { status: res.status, ok, json, text: res.text };
    },
  };
}

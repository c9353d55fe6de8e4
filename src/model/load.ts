// Builds spec/ into one typed Model from its validated inputs (inputs.ts: the dereferenced OpenAPI
// documents and the schema-valid rule files, or their snapshot, snapshot.ts): cross-checks ids and
// operation references and compiles validators once. Any defect is a ModelError naming the file, the
// JSON pointer and the problem.
// Over 300 lines on purpose: the per-file rule parsing and the cross-checks between files (ids unique
// across files, operations existing, transitions naming their machine's states) read one shared state;
// split apart they would pass half-built maps between modules.

import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ModelError } from '../errors/index.ts';
import { packagePath } from '../package/index.ts';
import { clientRulesOf } from './client-rules.ts';
import { specFactsOf } from './facts.ts';
import { newAjv, readInputs, type ModelInputs } from './inputs.ts';
import { HTTP_METHODS, type RawClientRule, type RawOpenApi, type RawRule, type RawRuleFiles } from './raw.ts';
import { checkReadings } from './readings.ts';
import { readSnapshot, specDigest, writeSnapshot } from './snapshot.ts';
import { checkWhenPresent, whenPresentOf } from './when-present.ts';
import type {
  AliasRule, Category, ErrorRule, GenericRule, LimitRule, Model, Operation, OperationId, Rule, RuleId, StateMachine, StateRule, Webhook,
} from './types.ts';

export const DEFAULT_SPEC_DIR = packagePath('spec');


function pickCommon(raw: RawRule, file: string, pointer: string, defaults: { section?: string } = {}) {
  return {
    id: raw.id as string,
    section: (raw.section ?? defaults.section) as string,
    summary: raw.summary as string,
    operations: (raw.operations ?? []) as string[],
    testable: raw.testable ?? true,
    ...(raw.untestable_reason ? { untestable_reason: raw.untestable_reason } : {}),
    ...(raw.loose ? { loose: raw.loose as string } : {}),
    ...(raw.unspecified ? { unspecified: raw.unspecified } : {}),
    ...(raw.readings ? { readings: raw.readings } : {}),
    source: { file, pointer },
  };
}

function collectOperations(openapi: RawOpenApi, rel: string): Map<string, Operation> {
  const ops = new Map<string, Operation>();
  for (const [p, item] of Object.entries(openapi.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const pointer = `/paths/${p.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`;
      if (!op.operationId) throw new ModelError(`spec/${rel}`, pointer, 'operation has no operationId');
      if (ops.has(op.operationId)) throw new ModelError(`spec/${rel}`, `${pointer}/operationId`, `duplicate operationId "${op.operationId}"`);
      const requestSchema = op.requestBody?.content?.['application/json']?.schema;
      const responseSchemas: Record<string, object> = {};
      for (const [code, resp] of Object.entries(op.responses ?? {})) {
        const schema = resp?.content?.['application/json']?.schema;
        if (schema) responseSchemas[code] = schema;
      }
      const deprecatedRequestFields: string[] = [];
      for (const [name, prop] of Object.entries(requestSchema?.properties ?? {})) {
        if (prop?.deprecated) deprecatedRequestFields.push(name);
      }
      const servers = op.servers ?? item.servers;
      const isPci = Array.isArray(servers) && servers.some((s) => String(s.url).includes('pci_url'));
      ops.set(op.operationId, {
        operationId: op.operationId as OperationId,
        method: method.toUpperCase(),
        path: p,
        server: isPci ? 'pci' : 'api',
        pathUnspecified: op['x-path-unspecified'] === true,
        auth: op['x-auth'] ?? [],
        userScoped: op['x-user-scoped'] === true,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])].map((x) => ({ name: String(x.name), in: String(x.in), required: x.required === true })),
        hasRequestBody: op.requestBody !== undefined,
        deprecatedRequestFields,
        requestSchema,
        responseSchemas,
        mutates: op['x-mutates'] === true,
        movesMoney: op['x-moves-money'] === true,
      });
    }
  }
  return ops;
}

/**
 * Loads the model under `dir`. The package's own spec/ reuses the snapshot of its validated inputs when
 * no file changed (snapshot.ts); then its response schemas compile on first use, as they compiled when
 * the snapshot was written. Any other directory, or a changed spec/, is read and validated in full.
 */
export async function loadModelFrom(dir: string): Promise<Model> {
  const ajv = newAjv();
  const own = path.resolve(dir) === path.resolve(DEFAULT_SPEC_DIR);
  const digest = own ? await specDigest(dir).catch(() => undefined) : undefined;
  const snapshot = digest ? await readSnapshot(digest) : undefined;
  const inputs = snapshot ?? (await readInputs(dir, ajv));
  const model = buildModel(inputs, ajv, snapshot !== undefined);
  if (digest && !snapshot) await writeSnapshot(digest, inputs);
  return model;
}

function buildModel(inputs: ModelInputs, ajv: ReturnType<typeof newAjv>, lazy: boolean): Model {
  const openapi = inputs.openapi as RawOpenApi;
  const control = inputs.control as RawOpenApi;
  const raw = inputs.rules as unknown as RawRuleFiles;
  checkWhenPresent(openapi, 'openapi.yaml');
  const operations = collectOperations(openapi, 'openapi.yaml');

  const rules: Rule[] = [];
  // errors.yaml
  const categories = raw.errors.categories as { category: Category; status: number }[];
  const categoryFor = (status: number): Category | null => categories.find((c) => c.status === status)?.category ?? null;
  const ef = 'rules/errors.yaml';
  for (const key of ['body', 'category_status', 'other_unspecified'] as const) {
    const r = raw.errors[key];
    if (!r) continue;
    rules.push({ ...pickCommon(r, ef, `/${key}`), kind: 'general' } as GenericRule);
  }
  raw.errors.rules.forEach((r, i) => {
    const pointer = `/rules/${i}`;
    const derived = categoryFor(r.status);
    if (r.category && r.category !== derived) {
      throw new ModelError(`spec/${ef}`, `${pointer}/category`, `category ${r.category} disagrees with the section 7 table (${derived ?? 'none'} for HTTP ${r.status})`);
    }
    rules.push({
      ...pickCommon(r, ef, pointer, { section: '7' }),
      kind: 'error', table: r.table, status: r.status, reason: r.reason, message: r.message,
      category: derived, cause: r.cause,
      ...(r.details ? { details: r.details } : {}),
      ...(r.details_not ? { details_not: r.details_not } : {}),
    } as ErrorRule);
  });
  // states.yaml
  const sf = 'rules/states.yaml';
  const machines: StateMachine[] = raw.states.machines.map((m) => ({
    name: m.name,
    section: m.section,
    states: [...(m.states ?? [])],
    ...(m.pending_status ? { pending_status: m.pending_status } : {}),
  })) as StateMachine[];
  raw.states.machines.forEach((m, mi) => {
    m.rules.forEach((r, ri) => {
      // Transitions name states of their machine (when the machine lists its states).
      const states = m.states ?? [];
      if (states.length > 0) {
        (r.transitions ?? []).forEach((t, ti) => {
          for (const key of ['from', 'to'] as const) {
            if (t[key] !== undefined && !states.includes(t[key])) {
              throw new ModelError(`spec/${sf}`, `/machines/${mi}/rules/${ri}/transitions/${ti}/${key}`, `state "${t[key]}" is not one of machine ${m.name}'s states ${JSON.stringify(m.states)}`);
            }
          }
        });
      }
      rules.push({
        ...pickCommon(r, sf, `/machines/${mi}/rules/${ri}`, { section: m.section }),
        kind: 'state', machine: m.name,
        ...(r.wrong_transition_status ? { wrong_transition_status: r.wrong_transition_status } : {}),
        ...(r.transitions ? { transitions: r.transitions } : {}),
      } as StateRule);
    });
  });
  // aliases.yaml
  const af = 'rules/aliases.yaml';
  raw.aliases.aliases.forEach((r, i) => {
    rules.push({ ...pickCommon(r, af, `/aliases/${i}`), kind: 'alias', direction: r.direction, old: r.old, new: r.new, ...(r.webhook ? { webhook: r.webhook } : {}) } as AliasRule);
  });
  (raw.aliases.general ?? []).forEach((r, i) => {
    rules.push({ ...pickCommon(r, af, `/general/${i}`), kind: 'general' } as GenericRule);
  });
  // limits.yaml
  const lf = 'rules/limits.yaml';
  const limits: Record<string, LimitRule> = {};
  raw.limits.limits.forEach((r, i) => {
    const rule = { ...pickCommon(r, lf, `/limits/${i}`), kind: 'limit', ...(r.value !== undefined ? { value: r.value } : {}), ...(r.unit ? { unit: r.unit } : {}) } as LimitRule;
    if (limits[r.key]) throw new ModelError(`spec/${lf}`, `/limits/${i}/key`, `duplicate limit key "${r.key}"`);
    limits[r.key] = rule;
    rules.push(rule);
  });
  // auth.yaml
  const auf = 'rules/auth.yaml';
  raw.auth.rules.forEach((r, i) => {
    rules.push({ ...pickCommon(r, auf, `/rules/${i}`), kind: 'auth' } as GenericRule);
  });
  for (const [i, opId] of (raw.auth.user_agnostic_operations as string[]).entries()) {
    if (!operations.has(opId)) throw new ModelError(`spec/${auf}`, `/user_agnostic_operations/${i}`, `operation "${opId}" does not exist in spec/openapi.yaml`);
  }
  // general.yaml
  const gf = 'rules/general.yaml';
  raw.general.rules.forEach((r, i) => {
    rules.push({ ...pickCommon(r, gf, `/rules/${i}`), kind: r.kind, ...(r.facts ? { facts: r.facts } : {}) } as GenericRule);
  });

  const clientRules = clientRulesOf(inputs.client as { rules: RawClientRule[] }, 'rules/client.yaml', operations, raw.auth);

  // Cross-checks: unique ids, existing operations, untestable rules say why.
  const byId = new Map<string, Rule>();
  for (const r of rules) {
    const prev = byId.get(r.id);
    if (prev) {
      throw new ModelError(`spec/${r.source.file}`, `${r.source.pointer}/id`, `duplicate rule id "${r.id}" (first defined in spec/${prev.source.file} at ${prev.source.pointer})`);
    }
    byId.set(r.id, r);
    r.operations.forEach((opId, i) => {
      if (!operations.has(opId)) {
        throw new ModelError(`spec/${r.source.file}`, `${r.source.pointer}/operations/${i}`, `rule ${r.id} points at operation "${opId}", which does not exist in spec/openapi.yaml`);
      }
    });
    checkReadings(r);
    if (!r.testable && !r.untestable_reason) {
      throw new ModelError(`spec/${r.source.file}`, `${r.source.pointer}/untestable_reason`, `rule ${r.id} is marked testable: false without an untestable_reason`);
    }
    if (!r.testable && r.loose) {
      throw new ModelError(`spec/${r.source.file}`, `${r.source.pointer}/loose`, `rule ${r.id} is untestable (not checked at all) and loose at once: keep untestable_reason and drop loose`);
    }
  }

  // Validators compile once, eagerly when the inputs were just validated (a schema that does not
  // compile is a ModelError now), else on first use. OpenAPI 3.1 schemas are JSON Schema 2020-12.
  const schemas = new Map<string, object>();
  for (const op of operations.values()) {
    for (const [code, schema] of Object.entries(op.responseSchemas)) schemas.set(`${op.operationId}:${code}`, schema);
    if (op.requestSchema) schemas.set(`${op.operationId}:request`, op.requestSchema);
  }
  for (const [name, schema] of Object.entries(openapi.components?.schemas ?? {})) schemas.set(`#/components/schemas/${name}`, schema);
  for (const [name, item] of Object.entries(openapi.webhooks ?? {})) {
    const schema = item?.post?.requestBody?.content?.['application/json']?.schema;
    if (schema) schemas.set(`webhook:${name}`, schema);
  }
  const validators = new Map<string, ValidateFunction>();
  const validator = (key: string): ValidateFunction | undefined => {
    let v = validators.get(key);
    if (v) return v;
    const schema = schemas.get(key);
    if (!schema) return undefined;
    try {
      v = ajv.compile(schema);
    } catch (err) {
      throw new ModelError('spec/openapi.yaml', key, `schema does not compile: ${(err as Error).message}`);
    }
    validators.set(key, v);
    return v;
  };
  if (!lazy) for (const key of schemas.keys()) validator(key);
  const errorBodyValidator = validator('#/components/schemas/ErrorBody');
  if (!errorBodyValidator) throw new ModelError('spec/openapi.yaml', '/components/schemas', 'missing the ErrorBody schema (section 7 body shape)');

  const aliases = rules.filter((r): r is AliasRule => r.kind === 'alias');
  const webhooks: Webhook[] = [
    ...Object.entries(openapi.webhooks ?? {}).map(([id, item]) => ({
      id, path: item?.post?.['x-webhook-path'] as string | undefined, summary: String(item?.post?.summary ?? ''),
    })),
    ...Object.entries(openapi['x-unspecified-webhooks'] ?? {}).map(([id, w]) => ({ id, summary: String(w?.summary ?? '') })),
  ] as Webhook[];
  return {
    openapi,
    control,
    operations,
    operation(id) {
      const op = operations.get(id);
      if (!op) throw new Error(`unknown operation ${id}: it is not in spec/openapi.yaml`);
      return op;
    },
    whenPresent: (id) => whenPresentOf(operations.get(id)?.responseSchemas['2XX']),
    isOperationId: (id: string): id is OperationId => operations.has(id as OperationId),
    isRuleId: (id: string): id is RuleId => byId.has(id),
    rules,
    clientRules,
    clientRule(id) {
      const r = clientRules.find((c) => c.id === id);
      if (!r) throw new Error(`unknown client rule id ${id}: it is not in spec/rules/client.yaml`);
      return r;
    },
    rule(id) {
      const r = byId.get(id);
      if (!r) throw new Error(`unknown rule id ${id}: it is not in spec/rules`);
      return r;
    },
    errorRule(id) {
      const r = byId.get(id);
      if (!r || r.kind !== 'error') throw new Error(`unknown error rule id ${id}: it is not in spec/rules/errors.yaml`);
      return r;
    },
    aliasRule(id) {
      const r = byId.get(id);
      if (!r || r.kind !== 'alias') throw new Error(`unknown alias rule id ${id}: it is not in spec/rules/aliases.yaml`);
      return r;
    },
    webhooks,
    webhookPath(id) {
      const p = webhooks.find((w) => w.id === id)?.path;
      if (!p) throw new Error(`webhook ${id} has no x-webhook-path in spec/openapi.yaml`);
      return p;
    },
    machine(name) {
      const m = machines.find((x) => x.name === name);
      if (!m) throw new Error(`unknown state machine ${name}: it is not in spec/rules/states.yaml`);
      return m;
    },
    categories,
    categoryFor,
    aliases,
    machines,
    limits,
    ...specFactsOf(operations as ReadonlyMap<OperationId, Operation>, limits),
    auth: raw.auth,
    validator,
    errorBodyValidator,
  } as Model;
}

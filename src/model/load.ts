// Builds spec/ into one typed Model from its validated inputs (inputs.ts: the dereferenced OpenAPI
// documents and the schema-valid rule files, or their snapshot, snapshot.ts). The parts are built
// beside it: operations (operations.ts), server rules and their checks across files (rules.ts), client
// rules (client-rules.ts) and schema validators (validators.ts); this file loads, orders the checks and
// assembles the Model's accessors. Any defect is a ModelError naming the file, the JSON pointer and the
// problem.

import path from 'node:path';
import { packagePath } from '../package/index.ts';
import { clientRulesOf } from './client-rules.ts';
import { specFactsOf } from './facts.ts';
import { newAjv, readInputs, type ModelInputs } from './inputs.ts';
import { collectOperations } from './operations.ts';
import type { RawClientRule, RawOpenApi, RawRuleFiles } from './raw.ts';
import { rulesById, rulesOf } from './rules.ts';
import { readSnapshot, specDigest, writeSnapshot } from './snapshot.ts';
import { validatorsOf } from './validators.ts';
import { checkWhenPresent, whenPresentOf } from './when-present.ts';
import type { AliasRule, Model, Operation, OperationId, RuleId, Webhook } from './types.ts';

export const DEFAULT_SPEC_DIR = packagePath('spec');

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
  // The snapshot's schemas were checked against the meta-schema when it was written: compiling them
  // again needs no meta-schema (compiling JSON Schema 2020-12's own, on first use, was a tenth of a
  // second of every start).
  if (snapshot) ajv.opts.validateSchema = false;
  const inputs = snapshot ?? (await readInputs(dir, ajv));
  const model = buildModel(inputs, ajv, snapshot !== undefined);
  if (digest && !snapshot) await writeSnapshot(digest, inputs);
  return model;
}

function buildModel(inputs: ModelInputs, ajv: ReturnType<typeof newAjv>, lazy: boolean): Model {
  const openapi = inputs.openapi as RawOpenApi;
  const control = inputs.control as RawOpenApi;
  const raw = inputs.rules as unknown as RawRuleFiles;
  // Each step reads what the one before built: rules name operations, validators compile their schemas.
  checkWhenPresent(openapi, 'openapi.yaml');
  const operations = collectOperations(openapi, 'openapi.yaml');
  const { rules, categories, categoryFor, machines, limits } = rulesOf(raw, operations);
  const clientRules = clientRulesOf(inputs.client as { rules: RawClientRule[] }, 'rules/client.yaml', operations, raw.auth);
  const byId = rulesById(rules, operations);
  const { validator, errorBodyValidator } = validatorsOf(openapi, operations, ajv, lazy);

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

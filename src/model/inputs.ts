// The model's inputs as read from spec/: the two OpenAPI documents parsed, validated and dereferenced
// (swagger-parser), and the rule files parsed (yaml, line-accurate errors) and validated against their
// JSON Schemas. Any defect is a ModelError naming the file, the position and the problem. This is the
// slow part of loading (about half a second): snapshot.ts keeps its result for unchanged spec files.

import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Ajv, SchemaValidateFunction } from 'ajv';
import { readInputFile, type InputDocument } from '../input/index.ts';
import { describeSchemaProblem, ModelError } from '../errors/index.ts';
import { createAjv } from '../schemas/index.ts';
import { NOT_NULL_KEYWORD } from './nullable.ts';

export const RULE_FILES = ['errors', 'states', 'aliases', 'limits', 'auth', 'general'] as const;
export type RuleFile = (typeof RULE_FILES)[number];

/** Everything the model is built from: plain data, so it survives a JSON round trip (snapshot.ts). */
export interface ModelInputs {
  /** spec/openapi.yaml, dereferenced. */
  openapi: unknown;
  /** spec/control.yaml, dereferenced. */
  control: unknown;
  /** spec/rules/<name>.yaml, parsed and schema-valid. */
  rules: Record<RuleFile, unknown>;
  /** spec/rules/client.yaml, parsed and schema-valid. */
  client: unknown;
}

/**
 * A model's own instance (src/schemas configures it): the model compiles its spec's schemas into it,
 * and two models loaded in one process (a test's edited copy of spec/) may hold different schemas
 * under the same $id, so it is not the shared one.
 */
export function newAjv(): Ajv {
  const ajv = createAjv({ draft: '2020', allErrors: false, formats: true });
  // OpenAPI 3.1 annotation keywords that are not JSON Schema vocabulary.
  for (const kw of ['example', 'discriminator', 'xml', 'externalDocs']) {
    if (!ajv.getKeyword(kw)) ajv.addKeyword(kw);
  }
  // A field an answer requires holds a value (nullable.ts): null is named as such, not as a type mismatch.
  const notNull: SchemaValidateFunction = (want: boolean, data: unknown) => {
    if (!want || data !== null) return true;
    notNull.errors = [{ keyword: NOT_NULL_KEYWORD, message: 'must not be null (the answer requires this field)', params: {} }];
    return false;
  };
  ajv.addKeyword({ keyword: NOT_NULL_KEYWORD, schemaType: 'boolean', errors: true, validate: notNull });
  return ajv;
}

async function readYaml(dir: string, rel: string): Promise<InputDocument> {
  return readInputFile(path.join(dir, rel), {
    what: '',
    format: 'yaml',
    displayName: `spec/${rel}`,
    error: (file, pointer, problem, line) => new ModelError(file, pointer ?? '', problem.replace('check the path', 'restore it from git'), line),
  });
}

async function readJson(dir: string, rel: string): Promise<object> {
  const file = path.join(dir, rel);
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new ModelError(`spec/${rel}`, '', `cannot read or parse the JSON schema: ${(err as Error).message}`);
  }
}

function validateAgainst(ajv: Ajv, schema: object, doc: InputDocument): void {
  const validate = ajv.compile(schema);
  if (!validate(doc.value)) {
    const e = validate.errors![0];
    throw doc.problem(e.instancePath || '/', describeSchemaProblem(e));
  }
}

async function dereference(dir: string, rel: string): Promise<unknown> {
  const file = path.join(dir, rel);
  if (!existsSync(file)) throw new ModelError(`spec/${rel}`, '', 'file is missing; restore it from git');
  // Parse first so YAML errors are reported with our file name, then let swagger-parser validate.
  await readYaml(dir, rel);
  // Loaded here only: a snapshot hit (snapshot.ts) never needs it.
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  try {
    return await SwaggerParser.validate(file);
  } catch (err) {
    const msg = String((err as Error)?.message ?? err).split('\n')[0];
    throw new ModelError(`spec/${rel}`, '', `not a valid OpenAPI document: ${msg}`);
  }
}

/** Reads and validates every input file under `dir`. */
export async function readInputs(dir: string, ajv: Ajv): Promise<ModelInputs> {
  const openapi = await dereference(dir, 'openapi.yaml');
  const control = await dereference(dir, 'control.yaml');
  const rules = {} as Record<RuleFile, unknown>;
  for (const name of RULE_FILES) {
    const rel = `rules/${name}.yaml`;
    const doc = await readYaml(dir, rel);
    validateAgainst(ajv, await readJson(dir, `schemas/${name}.schema.json`), doc);
    rules[name] = doc.value;
  }
  const clientRel = 'rules/client.yaml';
  const clientDoc = await readYaml(dir, clientRel);
  validateAgainst(ajv, await readJson(dir, 'schemas/client.schema.json'), clientDoc);
  const client = clientDoc.value;
  return { openapi, control, rules, client };
}

// The JSON Schemas of the files this tool writes and reads (spec/schemas/*.schema.json), compiled
// once, from the package root (sources or dist/), never the cwd: a user's working directory has no spec/.

import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { packagePath } from '../package/index.ts';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => unknown;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const cache = new Map<string, ValidateFunction>();

export const SCHEMA_FILES = {
  results: 'results.schema.json',
  expectedFailures: 'expected-failures.schema.json',
} as const;

export function schemaPath(file: string): string {
  return packagePath('spec', 'schemas', file);
}

export function validatorFor(file: string): ValidateFunction {
  let v = cache.get(file);
  if (!v) {
    v = ajv.compile(JSON.parse(readFileSync(schemaPath(file), 'utf8')));
    cache.set(file, v);
  }
  return v;
}

/** The first few problems as one line: `/checks/3/verdict must be equal to one of the allowed values`. */
export function describeErrors(errors: ErrorObject[] | null | undefined, max = 3): string {
  return (errors ?? [])
    .slice(0, max)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}

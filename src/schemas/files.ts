// The JSON Schemas that ship with the tool (spec/schemas/*.schema.json), read from the package root
// (sources or dist/), never the cwd (a user's working directory has no spec/), and compiled once.

import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { packagePath } from '../package/index.ts';
import { compileSchema } from './ajv.ts';

export function schemaPath(file: string): string {
  return packagePath('spec', 'schemas', file);
}

const read = new Map<string, object>();

/** spec/schemas/`file`, compiled once for the flavour asked (see compileSchema). */
export function schemaFileValidator<T = unknown>(file: string, opts: { allErrors?: boolean; formats?: boolean } = {}): ValidateFunction<T> {
  let schema = read.get(file);
  if (!schema) read.set(file, (schema = JSON.parse(readFileSync(schemaPath(file), 'utf8')) as object));
  return compileSchema<T>(schema, opts);
}

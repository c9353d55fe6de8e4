// The JSON Schemas of the files this tool writes and reads (spec/schemas/*.schema.json), compiled
// once, from the package root (sources or dist/), never the cwd: a user's working directory has no spec/.

import type { ErrorObject, ValidateFunction } from 'ajv';
import { schemaFileValidator, schemaPath } from '../schemas/index.ts';

export { schemaPath };

export const SCHEMA_FILES = {
  results: 'results.schema.json',
  expectedFailures: 'expected-failures.schema.json',
} as const;

/** Every problem collected: describeErrors lists the first few. */
export function validatorFor(file: string): ValidateFunction {
  return schemaFileValidator(file, { allErrors: true });
}

/** The first few problems as one line: `/checks/3/verdict must be equal to one of the allowed values`. */
export function describeErrors(errors: ErrorObject[] | null | undefined, max = 3): string {
  return (errors ?? [])
    .slice(0, max)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}

// JSON Schema validators for every schema checks look up by key: `<operationId>:<status>` and
// `<operationId>:request`, `#/components/schemas/<name>` and `webhook:<name>`. OpenAPI 3.1 schemas are
// JSON Schema 2020-12. Each compiles once: eagerly when the inputs were just validated (a schema that
// does not compile is a ModelError at load), else on first use (the snapshot's schemas compiled when
// it was written). Every schema but a request's holds an answer of the server, so it is compiled under
// the reading null-when-optional (nullable.ts): an optional field may be null, a required one may not.

import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ModelError } from '../errors/index.ts';
import type { newAjv } from './inputs.ts';
import { nullWhenOptional } from './nullable.ts';
import type { RawOpenApi } from './raw.ts';
import type { Operation } from './types.ts';

export interface Validators {
  validator(key: string): ValidateFunction | undefined;
  /** The section 7 error body shape; its absence is a ModelError. */
  errorBodyValidator: ValidateFunction;
}

export function validatorsOf(openapi: RawOpenApi, operations: ReadonlyMap<string, Operation>, ajv: ReturnType<typeof newAjv>, lazy: boolean): Validators {
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
  const memo = new Map<unknown, unknown>();
  for (const [key, schema] of schemas) if (!key.endsWith(':request')) schemas.set(key, nullWhenOptional(schema, memo) as object);
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
  return { validator, errorBodyValidator };
}

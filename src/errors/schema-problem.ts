// How a schema violation in a file the user wrote (the model, a load plan, an audit plan) reads in an
// error message: the problem in words, not ajv's keyword; the caller adds the file and the pointer.

import type { ErrorObject } from 'ajv';

export function describeSchemaProblem(e: ErrorObject): string {
  const params = e.params as { additionalProperty?: string; missingProperty?: string; allowedValues?: unknown };
  if (e.keyword === 'additionalProperties') return `unknown property "${params.additionalProperty}"`;
  if (e.keyword === 'required') return `missing required property "${params.missingProperty}"`;
  if (e.keyword === 'enum') return `${e.message}: ${JSON.stringify(params.allowedValues)}`;
  return e.message ?? e.keyword;
}

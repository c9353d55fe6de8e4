// Validates raw JSON against a JSON schema with ajv and turns the first problem into a one-line
// message naming the field (`profile.clients[0].client_secret: must be a string`), because users read
// these in a terminal and a dump of ajv's error array tells them nothing.

import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { SchemaViolationError } from '../errors/index.ts';
import { packagePath } from '../package/index.ts';
import { compileSchema } from '../schemas/index.ts';

/**
 * Reads a JSON schema that ships with the tool, by its path from the package root
 * (`spec/schemas/profile.schema.json`), never the cwd. A leading `../../` (the older form, relative to
 * src/profile/) is dropped: every data file sits at the package root, and this file also runs from dist/.
 */
export function loadSchema(fromRoot: string): object {
  return JSON.parse(readFileSync(packagePath(fromRoot.replace(/^(\.\.\/)+/, '')), 'utf8')) as object;
}

/** JSON pointer `/clients/0/client_id` -> `clients[0].client_id`. */
export function pointerToField(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  }
  return out;
}

function describe(root: string, err: ErrorObject): string {
  const at = pointerToField(err.instancePath);
  const base = at ? `${root}.${at}` : root;
  switch (err.keyword) {
    case 'required':
      return `${base ? `${base}.` : ''}${(err.params as { missingProperty: string }).missingProperty} is required`;
    case 'additionalProperties':
      return `${base}.${(err.params as { additionalProperty: string }).additionalProperty}: unknown field`;
    case 'pattern':
      return `${base}: ${JSON.stringify(String(err.data)).slice(0, 80)} does not have the expected form (${err.params.pattern})`;
    case 'type':
    {
      const type = String((err.params as { type: string }).type);
      return `${base}: must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
    }
    default:
      return `${base}: ${err.message ?? 'is invalid'}`;
  }
}

/** Throws ConfigError naming the first offending field; returns the value typed on success. */
export function validateOrThrow<T>(schema: object, value: unknown, root: string, context: string): T {
  const validate = compileSchema(schema);
  if (!validate(value)) {
    const err = validate.errors?.[0];
    throw new SchemaViolationError(`${context}: ${err ? describe(root, err) : 'is invalid'}`, err?.instancePath ?? '');
  }
  return value as T;
}

// The one Ajv configuration: a schema is compiled once (the same object, or another under an $id the
// instance holds), its draft is the one its $schema names, formats are checked unless a caller turns
// them off, and a caller that lists problems gets all of them.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package/index.ts';
import { compileSchema, draftOf, schemaFileValidator, sharedAjv } from './index.ts';

describe('src/schemas', () => {
  it('compiles a schema once: the same object, or the same $id again, is the validator already made', () => {
    const schema = { $id: 'test:once', type: 'object', required: ['a'] };
    const first = compileSchema(schema);
    expect(compileSchema(schema)).toBe(first);
    expect(compileSchema({ ...schema })).toBe(first);
    expect(schemaFileValidator('load-plan.schema.json')).toBe(schemaFileValidator('load-plan.schema.json'));
    expect(sharedAjv({ draft: '07', allErrors: false, formats: true })).toBe(sharedAjv({ draft: '07', allErrors: false, formats: true }));
  });

  it('reads the draft from $schema: 2020-12 tuples with prefixItems, draft-07 with an items array', () => {
    expect(draftOf({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe('2020');
    expect(draftOf({})).toBe('07');
    const tuple2020 = compileSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }], items: false });
    expect(tuple2020(['a'])).toBe(true);
    expect(tuple2020(['a', 'b'])).toBe(false);
    const tuple07 = compileSchema({ type: 'array', items: [{ type: 'string' }], additionalItems: false });
    expect(tuple07(['a'])).toBe(true);
    expect(tuple07(['a', 'b'])).toBe(false);
  });

  it('checks formats unless turned off, and lists every problem only when asked', () => {
    const schema = { type: 'object', properties: { at: { type: 'string', format: 'date-time' }, n: { type: 'integer' } } };
    expect(compileSchema(schema)({ at: 'yesterday' })).toBe(false);
    expect(compileSchema(schema, { formats: false })({ at: 'yesterday' })).toBe(true);
    const all = compileSchema(schema, { allErrors: true });
    expect(all({ at: 'yesterday', n: 1.5 })).toBe(false);
    expect(all.errors?.map((e) => e.instancePath)).toEqual(['/at', '/n']);
    const first = compileSchema(schema);
    first({ at: 'yesterday', n: 1.5 });
    expect(first.errors).toHaveLength(1);
  });

  it('is the only place an Ajv instance is made (tests aside)', () => {
    const made: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && /new Ajv(2020)?\(/.test(readFileSync(p, 'utf8'))) made.push(relative(PACKAGE_ROOT, p));
      }
    };
    for (const root of ['src', 'suites', 'generators']) walk(join(PACKAGE_ROOT, root));
    expect(made).toEqual([join('src', 'schemas', 'ajv.ts')]);
  });
});

import { describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_SPEC_DIR, loadModelFrom } from './load.ts';
import { newAjv, readInputs } from './inputs.ts';
import { decodeShared, encodeShared, readSnapshot, specDigest } from './snapshot.ts';

const roundTrip = (v: unknown) => decodeShared(JSON.parse(JSON.stringify(encodeShared(v))));

describe('the model snapshot', () => {
  it('gives back the validated inputs exactly, shared objects still shared', async () => {
    const inputs = await readInputs(DEFAULT_SPEC_DIR, newAjv());
    const back = roundTrip(inputs) as typeof inputs;
    type Doc = { components: { schemas: Record<string, object> } };
    const openapi = inputs.openapi as Doc;
    expect(isDeepStrictEqual(back, inputs)).toBe(true);
    // swagger-parser puts one object wherever a schema is $ref'd: the same in the snapshot.
    const errorBody = openapi.components.schemas.ErrorBody;
    const uses = (root: Doc) => {
      let n = 0;
      const walk = (v: unknown, seen: Set<object>) => {
        if (v === null || typeof v !== 'object' || seen.has(v)) return;
        seen.add(v);
        for (const x of Object.values(v)) {
          if (x === root.components.schemas.ErrorBody) n++;
          walk(x, seen);
        }
      };
      walk(root, new Set());
      return n;
    };
    expect(uses(openapi)).toBeGreaterThan(1);
    expect(uses(back.openapi as Doc)).toBe(uses(openapi));
    expect((back.openapi as Doc).components.schemas.ErrorBody).not.toBe(errorBody);
  });

  it('keeps a cycle a cycle', () => {
    const a: any = { name: 'a', list: [1, 2] };
    a.self = a;
    a.again = a.list;
    const b = roundTrip(a) as any;
    expect(b.self).toBe(b);
    expect(b.again).toBe(b.list);
    expect(b.list).toEqual([1, 2]);
  });

  it('is keyed by every byte of spec/: one changed file is a different digest, so a full validated load', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'baas-snap-'));
    try {
      await cp(DEFAULT_SPEC_DIR, dir, { recursive: true });
      const same = await specDigest(dir);
      expect(same).toBe(await specDigest(DEFAULT_SPEC_DIR));
      const file = path.join(dir, 'rules', 'limits.yaml');
      await writeFile(file, `${await readFile(file, 'utf8')}\n# edited\n`);
      const changed = await specDigest(dir);
      expect(changed).not.toBe(same);
      expect(await readSnapshot(changed)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('builds the same model from the snapshot as from the files', async () => {
    const first = await loadModelFrom(DEFAULT_SPEC_DIR);
    expect(await readSnapshot(await specDigest(DEFAULT_SPEC_DIR))).toBeDefined();
    const again = await loadModelFrom(DEFAULT_SPEC_DIR);
    expect(isDeepStrictEqual(again.rules, first.rules)).toBe(true);
    expect(isDeepStrictEqual([...again.operations.values()], [...first.operations.values()])).toBe(true);
    expect(isDeepStrictEqual(again.auth, first.auth)).toBe(true);
    // Validators compiled on first use judge like the eager ones.
    const bad = { error: 'x' };
    expect(again.errorBodyValidator(bad)).toBe(first.errorBodyValidator(bad));
    for (const key of ['getUserV1:2XX', '#/components/schemas/ErrorBody']) {
      expect(again.validator(key)).toBeDefined();
      expect(again.validator(key)!({})).toBe(first.validator(key)!({}));
    }
    expect(again.validator('no-such:key')).toBeUndefined();
    // Compiled without the meta-schema (checked when the snapshot was written): every answer schema
    // still compiles and judges as the freshly validated one does.
    const keys = [...first.operations.values()].flatMap((op) => Object.keys(op.responseSchemas).map((s) => `${op.operationId}:${s}`));
    expect(keys.length).toBeGreaterThan(50);
    for (const key of keys) {
      for (const answer of [{}, null, [], { user_id: 1 }]) expect(again.validator(key)!(answer), key).toBe(first.validator(key)!(answer));
    }
  });
});

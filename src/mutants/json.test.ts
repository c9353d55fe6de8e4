// The JSON readers edits narrow bodies with, and the two body rewriters: `rewrite` hands every parsed
// body to its edit, `rewriteObject` only JSON objects (section 7 error bodies), and neither touches a
// body that is not JSON.

import { describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import type { OutgoingResponse, TransformRequest } from '../reference/index.ts';
import { asRecord, field, has, isObject, items, parseJson, type Json } from './json.ts';
import { rewrite, rewriteObject } from './transforms.ts';

const SAMPLES: Json[] = [null, true, 3, 'text', [], [{ a: 1 }], {}, { a: null, b: [1] }];

describe('JSON readers', () => {
  it('read a member only of objects, as optional chaining reads a parsed body', () => {
    for (const v of SAMPLES) {
      const object = v !== null && typeof v === 'object' && !Array.isArray(v);
      expect(isObject(v)).toBe(object);
      expect(asRecord(v)).toBe(object ? v : undefined);
      expect(field(v, 'a')).toBe(object ? (v as { a?: Json }).a : undefined);
      expect(items(v)).toEqual(Array.isArray(v) ? v : []);
    }
    expect(isObject(undefined)).toBe(false);
  });

  it('has: a key counts when present, null included', () => {
    expect(has({ a: null }, 'a')).toBe(true);
    expect(has({ a: 0 }, 'b')).toBe(false);
    expect(has([{ a: 1 }], 'a')).toBe(false);
    expect(has(null, 'a')).toBe(false);
  });

  it('parseJson: undefined for an empty or non-JSON text', () => {
    expect(parseJson('')).toBeUndefined();
    expect(parseJson('{')).toBeUndefined();
    expect(parseJson('null')).toBeNull();
    expect(parseJson('[1]')).toEqual([1]);
  });
});

describe('body rewriters', async () => {
  const model = await loadModel();
  const req: TransformRequest = { method: 'GET', path: '/x', operationId: 'getConfig', headers: {}, server: 'api', categoryFor: model.categoryFor };
  const answer = (body: string): OutgoingResponse => ({ status: 400, headers: {}, body });
  const mark = (b: Json) => void (isObject(b) ? (b.marked = true) : undefined);

  it('rewriteObject edits object bodies only; rewrite sees every JSON body', async () => {
    // body, edits rewriteObject makes, edits rewrite makes, body sent after rewriteObject
    const cases: [string, number, number, string][] = [
      ['{"a":1}', 1, 1, '{"a":1,"marked":true}'],
      ['[1]', 0, 1, '[1]'],
      ['null', 0, 1, 'null'],
      ['not json', 0, 0, 'not json'],
    ];
    for (const [body, byObject, byAny, sent] of cases) {
      const seenByObject: Json[] = [];
      const a = answer(body);
      await rewriteObject(() => true, (x) => void (seenByObject.push(x), mark(x)))(req, a);
      expect([seenByObject.length, a.body]).toEqual([byObject, sent]);
      const seen: Json[] = [];
      await rewrite(() => true, (x) => void seen.push(x))(req, answer(body));
      expect(seen.length).toBe(byAny);
    }
  });

  it('an edit that returns a body replaces the one sent', async () => {
    const a = answer('{"a":1}');
    await rewriteObject(() => true, () => ({ replaced: true }))(req, a);
    expect(JSON.parse(a.body)).toEqual({ replaced: true });
  });
});

// The one operation lookup, both ways: the location a request is sent to and the operation a seen request
// is named by agree, for spec paths and for the profile's paths of operations the spec does not show.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { locateOperation, operationMatcher } from './operation-location.ts';

let model: Model;
beforeAll(async () => {
  model = await loadModel();
});

describe('operation location', () => {
  it('names a request by the spec path, the profile path where the spec shows none, and nothing else', () => {
    const profile = { operations: { blockCard: { method: 'POST', path: '/cards/{card_id}/block' }, listActivity: { method: 'post', path: '/activity' } } };
    const at = operationMatcher(model, profile);
    expect(at('post', '/api/v1/token')).toBe('createToken');
    expect(at('POST', '/cards/c-1/block')).toBe('blockCard');
    expect(at('GET', '/cards/c-1/block')).toBeUndefined();
    expect(at('POST', '/activity')).toBe('listActivity');
    // A placeholder path of an operation the spec does not show is never a location.
    expect(at('POST', '/x-unspecified/approve3ds/t-1')).toBeUndefined();
    expect(operationMatcher(model, {})('POST', '/cards/c-1/block')).toBeUndefined();
  });

  it('is the reverse of locateOperation: every located operation is named back', () => {
    const profile = { operations: { blockCard: { method: 'POST', path: '/cards/{card_id}/block' } } };
    const at = operationMatcher(model, profile);
    for (const op of model.operations.values()) {
      const loc = locateOperation(model, profile, op.operationId);
      if (!loc) continue;
      expect(at(loc.method, loc.path.replace(/\{[^}]+\}/g, 'x1'))).toBe(op.operationId);
    }
  });

  it('a spec path wins over a profile path that shadows it; `server` keeps one server', () => {
    const at = operationMatcher(model, { operations: { blockCard: { method: 'POST', path: '/api/v1/token' } } });
    expect(at('POST', '/api/v1/token')).toBe('createToken');
    expect(operationMatcher(model, {}, 'api')('POST', '/b2b/cards/oct')).toBeUndefined();
    expect(operationMatcher(model, {}, 'pci')('POST', '/b2b/cards/oct')).toBe('tokenizeCard');
  });
});

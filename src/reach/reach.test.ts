// The shared map of which checks judge what: a row's governed operations are the model's row family
// (and every operation its checks try is among them), rule -> checks comes from the checks' rules, and
// a recorded request is matched to its operation by method and path, profile paths included.
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../checks/types.ts';
import { loadModel } from '../model/index.ts';
import { rowOperations, type RowFamily } from '../../suites/kit/rows.ts';
import { checksByRule, checksOfRules, governedOperations, harRequests, reachByCheck, rowFamilyOf, rulesByOperation } from './index.ts';

describe('governed operations', () => {
  it('are a row family across the model for the section 7 rows, the own operations for the others', async () => {
    const model = await loadModel();
    const chain = governedOperations(model, model.rule('ERR-S2S-CHAIN-ID-MISSING'));
    expect(chain).toContain('getUserV1');
    expect(chain).not.toContain('createUserV2');
    const token = model.rule('ERR-TOKEN-GRANT-TYPE-INVALID');
    expect(rowFamilyOf(token)).toBeUndefined();
    expect(governedOperations(model, token)).toEqual(['createToken']);
    expect(governedOperations(model, model.rule('ERR-USER-TOKEN-EXPIRED'))).toEqual(expect.arrayContaining(['getUserV1', 'listCards']));
    expect(rulesByOperation(model).get('createToken')).toContain('ERR-TOKEN-GRANT-TYPE-INVALID');
  });

  it('hold every operation the rows are tried on (one source with suites/kit/rows.ts)', async () => {
    const model = await loadModel();
    const ctx = { model, profile: { base_url: 'http://127.0.0.1:1', operations: {}, request_templates: {} } } as unknown as CheckContext;
    for (const rule of model.rules) {
      const family = rowFamilyOf(rule);
      if (!family || rule.id === 'AUTH-USER-TOKEN-USE') continue;
      const tried = rowOperations(ctx, rule.id, family as RowFamily).map((o) => o.op);
      expect(tried.length, rule.id).toBeGreaterThan(0);
      for (const op of tried) expect(governedOperations(model, rule), `${rule.id} ${op}`).toContain(op);
    }
  });
});

describe('rule -> checks and reach', () => {
  it('maps rules to the checks covering them', () => {
    const by = checksByRule([{ id: 'b', rules: ['R1'] }, { id: 'a', rules: ['R1', 'R2'] }]);
    expect(by.get('R1')).toEqual(['a', 'b']);
    expect(checksOfRules(by, ['R2', 'R1', 'R9'])).toEqual(['a', 'b']);
  });

  it('matches recorded requests to operations by method and path template, and profile paths for the unshown ones', async () => {
    const model = await loadModel();
    const hidden = [...model.operations.values()].find((o) => o.pathUnspecified)!;
    const har = { log: { entries: [
      { _check: 'c1', request: { method: 'POST', url: 'http://127.0.0.1:5/api/v1/token' } },
      { _check: 'c1', request: { method: 'GET', url: 'http://127.0.0.1:5/api/v1/user?x=1' } },
      { _check: 'c2', request: { method: 'GET', url: 'http://127.0.0.1:5/not/a/route' } },
      { _check: 'c2', request: { method: hidden.method.toUpperCase(), url: 'http://127.0.0.1:5/vendor/thing' } },
      { request: { method: 'GET', url: 'http://127.0.0.1:5/api/v1/user' } },
    ] } };
    const reach = reachByCheck(model, harRequests(har), { [hidden.operationId]: { method: hidden.method, path: '/vendor/thing' } });
    expect([...reach.get('c1')!].sort()).toEqual(['createToken', 'getUserV1']);
    expect([...reach.get('c2')!]).toEqual([hidden.operationId]);
    expect(harRequests({ nope: 1 })).toEqual([]);
  });
});

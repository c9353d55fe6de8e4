// The generated unions (src/generated/ids.ts) are what make a misspelt id a compile error.
// The expect-error directives below fail `tsc` (npm test) if a union ever widens to `string`.
import { describe, expect, it } from 'vitest';
import { ERROR_RULE_IDS, OPERATION_IDS, RULE_IDS, STATE_NAMES, WEBHOOK_IDS } from '../generated/ids.ts';
import { loadModel } from './index.ts';
import type { ErrorRuleId, Model, OperationId, RuleId, StateName, WebhookId } from './types.ts';

// @ts-expect-error a rule id spec/rules does not have (one letter dropped)
const badRule: RuleId = 'ERR-TOKEN-CLIENT-ID-MISING';
// @ts-expect-error an alias rule is not an error row
const notAnErrorRow: ErrorRuleId = 'ALIAS-USER-READ-ID';
// @ts-expect-error an operationId spec/openapi.yaml does not have
const badOp: OperationId = 'getUserV3';
// @ts-expect-error not a section 3 state
const badState: StateName = 'Activated';
// @ts-expect-error webhook ids are the spec/openapi.yaml `webhooks` keys, not paths
const badWebhook: WebhookId = '/v2/webhooks/user';
// @ts-expect-error accessors take the unions
const lookup = (m: Model) => m.errorRule('ERR-NOPE');

describe('generated id unions', () => {
  it('list exactly the ids of the model', async () => {
    const model = await loadModel();
    expect([...RULE_IDS]).toEqual(model.rules.map((r) => r.id));
    expect([...ERROR_RULE_IDS]).toEqual(model.rules.filter((r) => r.kind === 'error').map((r) => r.id));
    expect([...OPERATION_IDS].sort()).toEqual([...model.operations.keys()].sort());
    expect([...WEBHOOK_IDS]).toEqual(model.webhooks.filter((w) => w.path).map((w) => w.id));
    for (const m of model.machines) for (const s of m.states) expect(STATE_NAMES).toContain(s);
    // The misspellings above really are absent at run time too.
    expect(RULE_IDS).not.toContain(badRule);
    expect(ERROR_RULE_IDS).not.toContain(notAnErrorRow);
    expect(OPERATION_IDS).not.toContain(badOp);
    expect(STATE_NAMES).not.toContain(badState);
    expect(WEBHOOK_IDS).not.toContain(badWebhook);
    expect(() => lookup(model)).toThrow(/unknown error rule id ERR-NOPE/);
  });

  it('model accessors resolve webhooks and machines by id', async () => {
    const model = await loadModel();
    expect(model.webhookPath('user')).toBe('/v2/webhooks/user');
    expect(model.machine('SepaAccount').states).toContain('InProgress');
    expect(model.operation('createToken').path).toBe('/api/v1/token');
    expect(() => model.operation('nope' as OperationId)).toThrow(/unknown operation nope/);
  });
});

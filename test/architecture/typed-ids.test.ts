// Ids are generated types: a rule id, operationId or fault point that spec/ (or the reference's fault
// list) does not have fails `tsc` (run by `npm test` beside vitest). Each `@ts-expect-error` line below
// is a typo that must not compile: if one compiled, tsc would fail on the unused directive. The
// runtime half proves the correctly spelled ids used here exist in the generated lists.

import { describe, expect, it } from 'vitest';
import { CheckFailure, expectStatus, expectStep } from '../../src/checks/assert.ts';
import { PrerequisiteFailed } from '../../src/checks/prerequisite.ts';
import type { HttpResponse } from '../../src/checks/types.ts';
import type { CheckResult } from '../../src/events/index.ts';
import { OPERATION_IDS, RULE_IDS } from '../../src/generated/ids.ts';
import { isIn, USER_READS } from '../../src/mutants/ops.ts';
import { faults } from '../../src/mutants/variant.ts';
import { FAULT_POINTS } from '../../src/reference/index.ts';
import type { Drivers, OperationDrivers } from '../../suites/drivers/driver.ts';

const ok: HttpResponse = { status: 200, headers: {}, text: '', json: undefined, durationMs: 0 };
const noop = { safe: true, run: async () => undefined };

describe('ids are typed end to end (a typo fails tsc)', () => {
  it('rule ids: check failures, assertions, drivers', () => {
    const failure = new CheckFailure('x', { rules: ['ERR-BODY-SHAPE'] });
    // @ts-expect-error a rule id spec/rules does not have
    void new CheckFailure('x', { rules: ['ERR-BODY-SHAPES'] });
    expectStatus(ok, 200, ['ENDPOINT-RESPONSE-SCHEMA']);
    // @ts-expect-error a rule id spec/rules does not have
    expectStatus(ok, 200, ['ENDPOINT-RESPONSE-SCHEME']);
    const drivers: Drivers = { 'ERR-BODY-SHAPE': noop };
    // @ts-expect-error a driver keyed by a rule id spec/rules does not have
    const typo: Drivers = { 'ERR-BODY-SHAPEE': noop };
    void typo;
    expect(RULE_IDS).toEqual(expect.arrayContaining([...failure.rules!, 'ENDPOINT-RESPONSE-SCHEMA', ...Object.keys(drivers)]));
  });

  it('operationIds: prerequisite steps, schema drivers, operation sets', () => {
    expectStep(ok, 'createToken', 'token');
    // @ts-expect-error an operationId spec/openapi.yaml does not have
    expectStep(ok, 'createTokens', 'token');
    const blocked = new PrerequisiteFailed('control:advanceClock', 'x');
    // @ts-expect-error a control operation spec/control.yaml does not have
    void new PrerequisiteFailed('control:advanceClocks', 'x');
    const schema: OperationDrivers = { getConfig: noop };
    // @ts-expect-error a schema driver keyed by an operationId spec/openapi.yaml does not have
    const typo: OperationDrivers = { getConfigs: noop };
    void typo;
    expect(blocked.operation).toBe('control:advanceClock');
    expect(OPERATION_IDS).toEqual(expect.arrayContaining([...USER_READS, ...Object.keys(schema), 'createToken']));
    expect(isIn(USER_READS, USER_READS[0])).toBe(true);
    expect(isIn(USER_READS, 'control:advanceClock')).toBe(false);
  });

  it('fault points: faults(...names)', () => {
    const opts = faults('token.accept-any-grant-type');
    // @ts-expect-error a fault point the reference does not have
    void faults('token.accept-any-grant-types');
    expect(FAULT_POINTS).toEqual(expect.arrayContaining([...opts.faults!]));
  });
});

describe('CheckResult is a union on its verdict (its invariants are types)', () => {
  const base = { checkId: 'c', title: 't', area: 'a', section: '7', rules: [], durationMs: 0, requests: 0, seed: 1 };
  it('a failure carries its failure, a skip its reason, a blocked check its cause; no other verdict does', () => {
    const results: CheckResult[] = [
      { ...base, verdict: 'pass' },
      { ...base, verdict: 'fail', failure: { message: 'm', rules: [] } },
      { ...base, verdict: 'skip', reason: 'r' },
      { ...base, verdict: 'blocked', blocked: { operation: 'createToken', rules: [], message: 'm' } },
    ];
    // @ts-expect-error a failed check without its failure
    const noFailure: CheckResult = { ...base, verdict: 'fail' };
    // @ts-expect-error a skipped check without its reason
    const noReason: CheckResult = { ...base, verdict: 'skip' };
    // @ts-expect-error a passed check carrying a failure
    const passWithFailure: CheckResult = { ...base, verdict: 'pass', failure: { message: 'm', rules: [] } };
    void [noFailure, noReason, passWithFailure];
    const failed = results.find((r) => r.verdict === 'fail');
    // Narrowed on the verdict: `failure` is there without a non-null assertion.
    expect(failed?.verdict === 'fail' ? failed.failure.message : undefined).toBe('m');
  });
});

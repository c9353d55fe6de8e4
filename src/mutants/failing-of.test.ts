// A failing check whose answers the audit also found wrong (failure.audit, src/checks/audit.ts) is
// credited under the audit's rule: the finding names its rule, so it counts as a named kill.
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../events/index.ts';
import { failingOf } from './run-variant.ts';
import { creditKills } from './scoring.ts';

const failed = (audit?: { message: string; rules: string[] }): CheckResult => ({
  checkId: 'states.sepa.active-retrieve', title: 't', area: 'states', section: '3', rules: ['STATE-SEPA-ACTIVE-RETRIEVE'], verdict: 'fail', durationMs: 1, requests: 3, seed: 1,
  failure: { message: 'status is undefined', rules: ['STATE-SEPA-ACTIVE-RETRIEVE'], rulesNamed: true, ...(audit ? { audit } : {}) },
} as CheckResult);

describe('failingOf', () => {
  it('credits the audit finding of a failing check under its own rule', () => {
    const withAudit = failingOf([failed({ message: 'an answer this check received from getUserV2 …', rules: ['ENDPOINT-RESPONSE-SCHEMA'] })]);
    expect(creditKills(withAudit, ['ENDPOINT-RESPONSE-SCHEMA'], new Set()).caughtBy).toEqual(['states.sepa.active-retrieve']);
    // The check's own failure is still there, credited to its own rule.
    expect(creditKills(withAudit, ['STATE-SEPA-ACTIVE-RETRIEVE'], new Set()).caughtBy).toEqual(['states.sepa.active-retrieve']);
  });

  it('credits nothing to the audit rule without a finding', () => {
    expect(creditKills(failingOf([failed()]), ['ENDPOINT-RESPONSE-SCHEMA'], new Set()).caughtBy).toEqual([]);
  });
});

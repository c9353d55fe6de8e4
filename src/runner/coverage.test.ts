import { describe, expect, it } from 'vitest';
import type { CheckResult, RuleVerdict } from '../events/index.ts';
import { coverageOf, minCoverageMessage } from './coverage.ts';

const rule = (id: string, verdict: RuleVerdict['verdict'], checks: string[] = [], reason?: string): RuleVerdict => ({ id, section: '3', kind: 'state', summary: id, verdict, checks, ...(reason ? { reason } : {}) });
const result = (checkId: string, verdict: CheckResult['verdict'], reason?: string, rules: string[] = []): CheckResult =>
  ({ checkId, title: checkId, area: 'a', section: '3', rules, verdict, durationMs: 0, requests: 0, seed: 1, ...(reason ? { reason } : {}), ...(verdict === 'fail' ? { failure: { message: 'x', rules } } : {}) }) as CheckResult;

describe('coverageOf', () => {
  const rules = [
    rule('R1', 'pass', ['c1']),
    rule('R2', 'fail', ['c2']),
    rule('R3', 'skip', ['c3']),
    rule('R4', 'skip', ['c3', 'c4']),
    rule('R5', 'skip', ['c5']),
    rule('R6', 'untestable'),
    rule('R7', 'uncovered'),
  ];
  const results = [
    result('c1', 'pass', undefined, ['R1']),
    result('c2', 'fail', undefined, ['R2']),
    result('c3', 'skip', 'needs control operation advanceClock: x'),
    result('c4', 'skip', 'needs control operation advanceClock: x'),
    result('c5', 'skip', 'needs the card-tokenization environment: profile.pci_url is not set'),
  ];

  it('counts exercised (pass or fail), skipped by reason and untestable, with shares that sum to 1', () => {
    const c = coverageOf(rules, results);
    expect(c.rules).toEqual({ total: 7, exercised: 2, skipped: 3, uncovered: 1, untestable: 1, testable: 6, blocked: 0, partial: 0 });
    expect(c.shares.exercised + c.shares.skipped + c.shares.uncovered + c.shares.untestable).toBeCloseTo(1, 3);
    expect(c.exercisedShareOfTestable).toBeCloseTo(2 / 6, 3);
    expect(c.skippedByReason).toEqual([
      { reason: 'needs control operation advanceClock: x', rules: 2, checks: 2 },
      { reason: 'needs the card-tokenization environment: profile.pci_url is not set', rules: 1, checks: 1 },
    ]);
    expect(c.minimum).toBeUndefined();
  });

  it('--min-coverage: met at or above the share, a message naming the top reasons below it', () => {
    expect(coverageOf(rules, results, new Map(), 0.33).minimum).toEqual({ share: 0.33, met: true });
    const below = coverageOf(rules, results, new Map(), 0.9);
    expect(below.minimum).toEqual({ share: 0.9, met: false });
    expect(minCoverageMessage(below)).toBe(
      'coverage 33.3% of testable rules exercised (2 of 6) is below --min-coverage 0.9 (90.0%); most skipped: 2 rule(s): needs control operation advanceClock: x; 1 rule(s): needs the card-tokenization environment: profile.pci_url is not set',
    );
    expect(minCoverageMessage(coverageOf(rules, results, new Map(), 0))).toBeUndefined();
  });

  it('a run whose checks all pass still falls short when most rules were skipped', () => {
    const allPass = results.map((r) => (r.verdict === 'fail' ? { ...r, verdict: 'pass' as const, failure: undefined } : r));
    expect(coverageOf(rules, allPass, new Map(), 0.9).minimum?.met).toBe(false);
  });
});

// Exercised means judged: a check reached a verdict on the rule from the target's answers. What the
// user's adapter, a failed prerequisite, a crash or a missing profile field did never raises it.
describe('coverageOf counts a rule only when a check judged it', () => {
  const adapterBlocked = (checkId: string, rules: string[]): CheckResult =>
    ({ ...result(checkId, 'blocked', undefined, rules), blocked: { operation: 'control:completeSepaActivation', rules: [], message: 'control adapter file a.yaml, operation completeSepaActivation: threw TypeError: x', adapter: { source: 'control adapter file a.yaml', operation: 'completeSepaActivation', problem: 'threw' } } }) as CheckResult;

  it('a rule whose only covering check is blocked by an adapter error is not exercised, and says why', () => {
    const rules = [rule('R1', 'blocked', ['c1'], 'c1: blocked by a control adapter error: control adapter file a.yaml, operation completeSepaActivation: threw TypeError: x'), rule('R2', 'pass', ['c2'])];
    const c = coverageOf(rules, [adapterBlocked('c1', ['R1']), result('c2', 'pass', undefined, ['R2'])]);
    expect(c.rules).toMatchObject({ exercised: 1, skipped: 1, blocked: 1 });
    expect(c.skippedByReason[0].reason).toMatch(/control adapter error/);
  });

  it('a rule failed only as another check\'s prerequisite (withOutcomes) is not exercised; a check failing on it is', () => {
    const blocked = { ...result('c1', 'blocked', undefined, ['OWN']), blocked: { operation: 'tokenizeCard', rules: ['FLOW'], message: 'HTTP 401' } } as CheckResult;
    const rules = [rule('FLOW', 'fail', [], 'tokenizeCard failed as a prerequisite of 1 check (c1): HTTP 401'), rule('OWN', 'blocked', ['c1'])];
    expect(coverageOf(rules, [blocked]).rules).toMatchObject({ exercised: 0, skipped: 2, blocked: 2 });
    expect(coverageOf(rules, [blocked, result('c2', 'fail', undefined, ['FLOW'])]).rules).toMatchObject({ exercised: 1, skipped: 1 });
  });

  it('a crash of the check judges nothing; a transport fault of the target does', () => {
    const crash = { ...result('c1', 'fail', undefined, ['R1']), failure: { message: 'check error: TypeError', rules: ['R1'], cause: 'CHECK_ERROR' } } as CheckResult;
    const reset = { ...result('c1', 'fail', undefined, ['R1']), failure: { message: 'transport failure', rules: ['R1'], cause: 'CONNECTION_RESET' } } as CheckResult;
    expect(coverageOf([rule('R1', 'fail', ['c1'])], [crash]).rules.exercised).toBe(0);
    expect(coverageOf([rule('R1', 'fail', ['c1'])], [reset]).rules.exercised).toBe(1);
  });

  it('a pass that left part of its rule unjudged for a missing profile field is not exercised, unless another check judged the rule whole', () => {
    const partial = { ...result('c1', 'pass', undefined, ['R1']), unjudged: [{ what: 'Push to Card steps', missing: 'profile.pci_url (the card-tokenization environment)' }] } as CheckResult;
    const c = coverageOf([rule('R1', 'pass', ['c1'])], [partial]);
    expect(c.rules).toMatchObject({ exercised: 0, skipped: 1, partial: 1 });
    expect(c.skippedByReason).toEqual([{ reason: 'passed only in part: not judged without profile.pci_url (the card-tokenization environment)', rules: 1, checks: 0 }]);
    expect(coverageOf([rule('R1', 'pass', ['c1', 'c2'])], [partial, result('c2', 'pass', undefined, ['R1'])]).rules.exercised).toBe(1);
  });
});

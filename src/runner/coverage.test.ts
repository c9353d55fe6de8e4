import { describe, expect, it } from 'vitest';
import type { CheckResult, RuleVerdict } from '../events/index.ts';
import { coverageOf, minCoverageMessage } from './coverage.ts';

const rule = (id: string, verdict: RuleVerdict['verdict'], checks: string[] = [], reason?: string): RuleVerdict => ({ id, section: '3', kind: 'state', summary: id, verdict, checks, ...(reason ? { reason } : {}) });
const result = (checkId: string, verdict: CheckResult['verdict'], reason?: string): CheckResult =>
  ({ checkId, title: checkId, area: 'a', section: '3', rules: [], verdict, durationMs: 0, requests: 0, seed: 1, ...(reason ? { reason } : {}) }) as CheckResult;

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
    result('c1', 'pass'),
    result('c2', 'fail'),
    result('c3', 'skip', 'needs control operation advanceClock: x'),
    result('c4', 'skip', 'needs control operation advanceClock: x'),
    result('c5', 'skip', 'needs the card-tokenization environment: profile.pci_url is not set'),
  ];

  it('counts exercised (pass or fail), skipped by reason and untestable, with shares that sum to 1', () => {
    const c = coverageOf(rules, results);
    expect(c.rules).toEqual({ total: 7, exercised: 2, skipped: 3, uncovered: 1, untestable: 1, testable: 6 });
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

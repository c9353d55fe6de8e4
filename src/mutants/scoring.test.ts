// The selftest's crediting rules on hand-made run records: a kill needs a failure whose own assertion
// named the broken rule on a check that passes on the baseline; everything else is not a kill.
import { describe, expect, it } from 'vitest';
import { creditKills, scoreSelftest, type FailingCheck, type RunRecord } from './scoring.ts';

const fail = (checkId: string, rules: string[], named: boolean, cause?: string): FailingCheck => ({ checkId, rules, message: `${checkId} failed`, named, ...(cause ? { cause } : {}) });

const run = (id: string, kind: RunRecord['kind'], breaks: string[], failing: FailingCheck[] = [], skipped: string[] = []): RunRecord => ({
  id,
  kind,
  breaks,
  failing,
  skippedChecks: skipped.map((checkId) => ({ checkId, reason: 'no reason' })),
  passed: 10,
});

const CHECKS = ['a', 'b', 'c', 'd'];
const clean = run('baseline', 'baseline', []);

describe('creditKills', () => {
  it('credits a failure whose assertion named the broken rule', () => {
    expect(creditKills([fail('a', ['R1'], true)], ['R1'], new Set(), 'named')).toEqual({ caughtBy: ['a'], notCredited: [] });
  });

  it('does not credit a failure naming only other rules, and does not list it', () => {
    expect(creditKills([fail('a', ['R2'], true)], ['R1'], new Set())).toEqual({ caughtBy: [], notCredited: [] });
  });

  it('does not credit rules the runner filled in (timeout, transport error, crash, rule-less assertion)', () => {
    const failing = [fail('a', ['R1', 'R2'], false, 'CHECK_TIMEOUT'), fail('b', ['R1'], false, 'ECONNRESET'), fail('c', ['R1'], false, 'CHECK_ERROR'), fail('d', ['R1'], false)];
    const credit = creditKills(failing, ['R1'], new Set(), 'named');
    expect(credit.caughtBy).toEqual([]);
    expect(credit.notCredited).toEqual(['a', 'b', 'c', 'd'].map((checkId) => ({ checkId, reason: 'rules-not-named' })));
  });

  it('credits unnamed failures in the any mode only', () => {
    expect(creditKills([fail('a', ['R1'], false)], ['R1'], new Set(), 'any').caughtBy).toEqual(['a']);
    expect(creditKills([fail('a', ['R1'], false)], ['R1'], new Set(), 'named').caughtBy).toEqual([]);
  });

  it('named-or-sole: credits a rule-less assertion of a single-rule check, nothing else unnamed', () => {
    const sole = (checkId: string, cause?: string, namedOutside = false): FailingCheck => ({ ...fail(checkId, ['R1'], false, cause), sole: true, ...(namedOutside ? { namedOutside } : {}) });
    expect(creditKills([sole('a')], ['R1'], new Set(), 'named-or-sole').caughtBy).toEqual(['a']);
    // Rules filled in for a multi-rule check, a timeout or crash, a step naming another rule, a baseline failure: never.
    const failing = [fail('b', ['R1', 'R2'], false), sole('c', 'CHECK_TIMEOUT'), sole('d', 'CHECK_ERROR'), sole('e', undefined, true), sole('f')];
    const credit = creditKills(failing, ['R1'], new Set(['f']), 'named-or-sole');
    expect(credit.caughtBy).toEqual([]);
    expect(credit.notCredited.map((n) => `${n.checkId}:${n.reason}`)).toEqual(['b:rules-not-named', 'c:rules-not-named', 'd:rules-not-named', 'e:rules-not-named', 'f:fails-on-baseline']);
  });

  it('does not credit a check that also fails on the baseline, even when it names the rule', () => {
    expect(creditKills([fail('a', ['R1'], true), fail('b', ['R1'], true)], ['R1'], new Set(['a']))).toEqual({ caughtBy: ['b'], notCredited: [{ checkId: 'a', reason: 'fails-on-baseline' }] });
  });

  it('does not credit a blocked check (the runner reports it unnamed with cause BLOCKED)', () => {
    for (const mode of ['named', 'named-or-sole', 'any'] as const) {
      expect(creditKills([fail('a', ['R1'], false, 'BLOCKED')], ['R1'], new Set(), mode)).toEqual({ caughtBy: [], notCredited: [{ checkId: 'a', reason: 'blocked' }] });
    }
  });
});

describe('scoreSelftest', () => {
  it('scores 100% and exits 0 when every faulty variant is credited and nothing else fails', () => {
    const s = scoreSelftest(clean, [run('f1', 'faulty', ['R1'], [fail('a', ['R1'], true)]), run('b1', 'benign', [])], CHECKS);
    expect(s.score).toEqual({ caught: 1, faulty: 1, percent: 100 });
    expect(s.falsePositives).toEqual([]);
    expect(s.exitCode).toBe(0);
  });

  it('exits 1 on an uncaught faulty variant and says whether checks failed for it', () => {
    const s = scoreSelftest(clean, [run('f1', 'faulty', ['R1'], [fail('a', ['R1'], false, 'CHECK_TIMEOUT')]), run('f2', 'faulty', ['R2'])], CHECKS, 'named');
    expect(s.uncaught).toEqual(['f1', 'f2']);
    expect(s.caughtOnlyByOtherRules).toEqual(['f1']);
    expect(s.score.percent).toBe(0);
    expect(s.exitCode).toBe(1);
  });

  it('never rounds a missed variant up to 100%', () => {
    const runs = Array.from({ length: 2000 }, (_, i) => run(`f${i}`, 'faulty', ['R1'], i === 0 ? [] : [fail('a', ['R1'], true)]));
    const s = scoreSelftest(clean, runs, CHECKS);
    expect(s.score.percent).toBeLessThan(100);
    expect(s.exitCode).toBe(1);
  });

  it('counts every failing or blocked check on the baseline or a benign variant as a false positive, and exits 1', () => {
    const baseline = run('baseline', 'baseline', [], [fail('a', ['R1'], true)]);
    const s = scoreSelftest(baseline, [run('b1', 'benign', [], [fail('b', ['R2'], false, 'BLOCKED')]), run('f1', 'faulty', ['R3'], [fail('c', ['R3'], true)])], CHECKS);
    expect(s.falsePositives.map((f) => `${f.variant}:${f.checkId}`)).toEqual(['baseline:a', 'b1:b']);
    expect(s.score.percent).toBe(100);
    expect(s.exitCode).toBe(1);
  });

  it('counts a variant that could not run as uncaught (faulty) or a false positive (benign)', () => {
    const broken = (id: string, kind: RunRecord['kind'], breaks: string[]) => ({ ...run(id, kind, breaks), error: 'Error: preflight refused' });
    const s = scoreSelftest(clean, [broken('f1', 'faulty', ['R1']), broken('b1', 'benign', [])], CHECKS);
    expect(s.uncaught).toEqual(['f1']);
    expect(s.falsePositives).toEqual([{ variant: 'b1', checkId: '(run)', rules: [], message: 'Error: preflight refused' }]);
  });

  it('counts skips apart and reports checks that pass on the baseline but skip on a variant', () => {
    const baseline = run('baseline', 'baseline', [], [], ['d']);
    const s = scoreSelftest(baseline, [run('b1', 'benign', [], [], ['a', 'd']), run('f1', 'faulty', ['R1'], [fail('b', ['R1'], true)], ['c'])], CHECKS);
    expect(s.skips).toEqual({ baseline: 1, variantsWithNewSkips: 2, benignWithNewSkips: ['b1'] });
    expect(s.variants.map((v) => v.newlySkipped)).toEqual([['a'], ['c']]);
    // A benign variant with new skips but no failure is clean (reported, not a false positive).
    expect(s.variants[0].ok).toBe(true);
    expect(s.exitCode).toBe(0);
  });
});

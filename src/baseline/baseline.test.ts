import { describe, expect, it } from 'vitest';
import { applyExpectedFailures, decideExit, diffRuns, ExpectedFailuresError, formatDiff, hasRegressions, parseExpectedFailures, parseResults, ResultsFileError } from './index.ts';
import type { ComparableRun } from './index.ts';

const run = (checks: Record<string, string>, rules: Record<string, string> = {}): ComparableRun => ({
  runId: 'r',
  seed: 7,
  checks: Object.entries(checks).map(([checkId, verdict]) => ({
    checkId,
    verdict,
    ...(verdict === 'fail' ? { failure: { message: `${checkId} broke` } } : {}),
    ...(verdict === 'skip' ? { reason: 'needs pci' } : {}),
    ...(verdict === 'blocked' ? { blocked: { operation: 'tokenizeCard', message: '404' } } : {}),
  })),
  rules: Object.entries(rules).map(([id, verdict]) => ({ id, verdict })),
});

describe('diffRuns', () => {
  const before = run({ a: 'pass', b: 'fail', c: 'pass', d: 'fail', e: 'skip', gone: 'pass' }, { R1: 'pass', R2: 'fail', R3: 'pass', R4: 'uncovered' });
  const after = run({ a: 'fail', b: 'pass', c: 'skip', d: 'blocked', e: 'pass', fresh: 'blocked' }, { R1: 'fail', R2: 'pass', R3: 'skip', R4: 'skip' });
  const diff = diffRuns(before, after);
  it('sorts changes per check into newly failing, fixed, newly skipped and other', () => {
    expect(diff.checks.newlyFailing).toEqual([
      { id: 'a', from: 'pass', to: 'fail', detail: 'a broke' },
      { id: 'fresh', from: 'absent', to: 'blocked', detail: 'blocked by tokenizeCard: 404' },
    ]);
    expect(diff.checks.fixed).toEqual([{ id: 'b', from: 'fail', to: 'pass' }]);
    expect(diff.checks.newlySkipped).toEqual([{ id: 'c', from: 'pass', to: 'skip', detail: 'needs pci' }]);
    expect(diff.checks.other.map((c) => `${c.id}:${c.from}->${c.to}`)).toEqual(['d:fail->blocked', 'e:skip->pass']);
    expect(diff.onlyInBaseline).toEqual(['gone']);
    expect(diff.onlyInCurrent).toEqual(['fresh']);
  });
  it('a rule skipped only because its checks were not selected here (another shard) is not newly skipped', () => {
    const shard = diffRuns(run({}, { R9: 'pass' }), { checks: [], rules: [{ id: 'R9', verdict: 'skip', reason: 'x.check: not run: in another shard than 2/4' }] });
    expect(shard.rules.newlySkipped).toEqual([]);
    expect(shard.rules.other.map((r) => r.id)).toEqual(['R9']);
  });
  it('and per rule (uncovered -> skip is not a newly skipped rule)', () => {
    expect(diff.rules.newlyFailing.map((r) => r.id)).toEqual(['R1']);
    expect(diff.rules.fixed.map((r) => r.id)).toEqual(['R2']);
    expect(diff.rules.newlySkipped.map((r) => r.id)).toEqual(['R3']);
    expect(diff.rules.other.map((r) => r.id)).toEqual(['R4']);
  });
  it('formats per rule and per check; no change says so', () => {
    const text = formatDiff(diff).join('\n');
    expect(text).toContain('Newly failing: 1 rule, 2 checks');
    expect(text).toContain('    rule  R1: pass -> fail');
    expect(text).toContain('    check a: pass -> fail — a broke');
    expect(text).toContain('Fixed: 1 rule, 1 check');
    expect(text).toContain('Newly skipped: 1 rule, 1 check');
    expect(hasRegressions(diff)).toBe(true);
    const same = diffRuns(before, before);
    expect(hasRegressions(same)).toBe(false);
    expect(formatDiff(same).join('\n')).toContain('no verdict changed');
  });
});

describe('expected failures', () => {
  const yaml = `expected_failures:
  - check: a
    reason: known, ticket 12
    expires: 2030-01-31
  - check: b
    reason: fixed upstream?
  - check: old
    reason: long ago
    expires: 2020-01-01
  - check: renamed.check
    reason: typo
  - check: other-shard
    reason: not run here
`;
  const list = parseExpectedFailures(yaml, 'ef.yaml');
  const results = [
    { checkId: 'a', verdict: 'fail' },
    { checkId: 'b', verdict: 'pass' },
    { checkId: 'old', verdict: 'fail' },
    { checkId: 'z', verdict: 'blocked' },
  ];
  const known = ['a', 'b', 'old', 'z', 'other-shard'];
  it('waives listed failures, and flags entries that now pass, expired or name no check', () => {
    const out = applyExpectedFailures(list, results, known, '2026-11-23');
    expect(out.waived).toEqual([{ check: 'a', reason: 'known, ticket 12', verdict: 'fail', kind: 'known' }]);
    expect(out.problems.map((p) => `${p.problem}:${p.check}`)).toEqual(['now-passes:b', 'expired:old', 'unknown-check:renamed.check']);
    const exit = decideExit({ results, expected: out });
    expect(exit.code).toBe(1);
    expect(exit.reasons[0]).toBe('1 check failed');
    expect(exit.reasons[1]).toBe('1 check blocked by a failed prerequisite');
  });
  it('typed entries: kind defaults to known, owner and link travel to the waiver and the expiry message', () => {
    const typed = parseExpectedFailures(JSON.stringify({ kind: 'baas-conform/expected-failures', expected_failures: [
      { check: 'a', reason: 'noise', kind: 'muted', owner: 'team-x', link: 'https://t.example/1' },
      { check: 'z', reason: 'ours', kind: 'accepted', link: 'BAAS-9', expires: '2030-01-31' },
      { check: 'old', reason: 'plain' },
    ] }), 'typed.json');
    const out = applyExpectedFailures(typed, results, known, '2030-02-01');
    expect(out.waived).toEqual([
      { check: 'a', reason: 'noise', verdict: 'fail', kind: 'muted', owner: 'team-x', link: 'https://t.example/1' },
      { check: 'old', reason: 'plain', verdict: 'fail', kind: 'known' },
    ]);
    expect(out.problems).toEqual([{ check: 'z', problem: 'expired', message: 'the accepted entry for z (link BAAS-9) expired on 2030-01-31 (ours): fix the target or renew the entry' }]);
    expect(decideExit({ results, expected: out }).code).toBe(1);
    expect(() => parseExpectedFailures('- check: a\n  reason: r\n  kind: ignored\n', 'k.yaml')).toThrow(ExpectedFailuresError);
    expect(() => parseExpectedFailures('- check: a\n  reason: r\n  owner: ""\n', 'o.yaml')).toThrow(ExpectedFailuresError);
  });
  it('an entry is valid through its expiry day (UTC) and expired the day after', () => {
    expect(applyExpectedFailures(list, results, known, '2030-01-31').waived.map((w) => w.check)).toEqual(['a']);
    expect(applyExpectedFailures(list, results, known, '2030-02-01').problems.map((p) => `${p.problem}:${p.check}`)).toContain('expired:a');
  });
  it('only waived failures and a clean list give exit 0', () => {
    const clean = parseExpectedFailures(JSON.stringify([{ check: 'a', reason: 'r' }]), 'ef.json');
    const out = applyExpectedFailures(clean, [{ checkId: 'a', verdict: 'fail' }, { checkId: 'b', verdict: 'pass' }], known);
    expect(decideExit({ results: [{ checkId: 'a', verdict: 'fail' }], expected: out })).toEqual({ code: 0, verdict: 'pass', reasons: [] });
    // Without the list the same run fails.
    expect(decideExit({ results: [{ checkId: 'a', verdict: 'fail' }] }).code).toBe(1);
  });
  it('a run that judged nothing is inconclusive (exit 4), never 0, with or without --strict; a failure still decides', () => {
    const skipped = [{ checkId: 'a', verdict: 'skip', reason: 'needs control:create3dsChallenge' }, { checkId: 'b', verdict: 'skip', reason: 'needs control:create3dsChallenge' }, { checkId: 'c', verdict: 'skip', reason: 'needs pci' }];
    for (const strict of [false, true]) {
      const exit = decideExit({ results: skipped, strict });
      expect(exit.code).toBe(4);
      expect(exit.verdict).toBe('inconclusive');
      expect(exit.reasons).toEqual(['INCONCLUSIVE: the run judged nothing because all 3 selected checks skipped (2: needs control:create3dsChallenge; 1: needs pci)']);
    }
    expect(decideExit({ results: [], selection: 'shard 3/4, --check x' }).reasons).toEqual(['INCONCLUSIVE: the run judged nothing because no check was selected (shard 3/4, --check x)']);
    // One judged check is enough: a pass among skips passes, a failure fails (and says what was left unjudged only when nothing was judged).
    expect(decideExit({ results: [...skipped, { checkId: 'd', verdict: 'pass' }] })).toEqual({ code: 0, verdict: 'pass', reasons: [] });
    expect(decideExit({ results: [...skipped, { checkId: 'd', verdict: 'fail' }] })).toEqual({ code: 1, verdict: 'fail', reasons: ['1 check failed'] });
    // A skipped check that warned under --strict fails: nothing turns "judged nothing" into 0.
    expect(decideExit({ results: [{ checkId: 'a', verdict: 'skip', reason: 'r', warnings: ['w'] }], strict: true })).toMatchObject({ code: 1, verdict: 'fail' });
  });
  it('says checks blocked by a control adapter error apart from those blocked by the target (exit 1 either way)', () => {
    const adapter = { source: 'control adapter module a.mjs', operation: 'advanceClock', problem: 'threw' };
    const exit = decideExit({ results: [{ checkId: 'a', verdict: 'blocked', blocked: { adapter } }, { checkId: 'b', verdict: 'blocked', blocked: {} }, { checkId: 'c', verdict: 'pass' }] });
    expect(exit.code).toBe(1);
    expect(exit.reasons).toEqual(['1 check blocked by a failed prerequisite', "1 check blocked by a control adapter error (the adapter's, not the target's: see ADAPTER ERROR above)"]);
  });
  it('rejects malformed files with a typed error naming the file and the field', () => {
    const bad = (text: string) => {
      try {
        parseExpectedFailures(text, 'ef.yaml');
      } catch (err) {
        expect(err).toBeInstanceOf(ExpectedFailuresError);
        expect((err as ExpectedFailuresError).code).toBe('BAAS_EXPECTED_FAILURES_INVALID');
        expect((err as ExpectedFailuresError).exitCode).toBe(2);
        return (err as Error).message;
      }
      throw new Error('expected an error');
    };
    expect(bad('- check: a\n')).toMatch(/^ef\.yaml: does not match .*reason/);
    expect(bad('- check: a\n  reason: r\n  expires: next week\n')).toContain('/0/expires must match pattern');
    expect(bad('- { check: a, reason: r }\n- { check: a, reason: s }\n')).toBe('ef.yaml: check a is listed twice; keep one entry per check');
    expect(bad('[unclosed')).toMatch(/^ef\.yaml: is neither YAML nor JSON/);
  });
});

describe('results files', () => {
  it('refuses other kinds and unknown versions with what to do', () => {
    const err = (v: unknown) => {
      try {
        parseResults(v, 'old.json');
      } catch (e) {
        expect(e).toBeInstanceOf(ResultsFileError);
        expect((e as ResultsFileError).code).toBe('BAAS_RESULTS_INVALID');
        return (e as Error).message;
      }
      throw new Error('expected an error');
    };
    expect(err({ tool: 'baas-conform', version: '0.1.0', checks: [] })).toContain('kind is undefined, expected "baas-conform/results"');
    expect(err({ kind: 'baas-conform/results', version: 2 })).toContain('results format version 2 is not supported');
    expect(err({ kind: 'baas-conform/results', version: 1, checks: 'x' })).toContain('does not match spec/schemas/results.schema.json');
  });
});

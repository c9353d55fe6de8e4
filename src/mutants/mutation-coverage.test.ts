// Mutation coverage as a build error: every testable rule is broken by a faulty variant of the
// default bank, or has a recorded reason why it cannot be; every reference fault point is switched
// on by some variant, or recorded as unusable (to be removed from the reference).
import { describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import { FAULT_POINTS } from '../reference/index.ts';
import { mutationCoverage, NO_VARIANT_REASONS, UNUSABLE_FAULT_POINTS, unusedFaultPoints } from './mutation-coverage.ts';
import { inArea, MUTANT_BANK, PENDING_BANK } from './registry.ts';

describe('mutation coverage by rule', () => {
  it('gives every testable rule a faulty variant, a pending one (a known gap of the checks) or a recorded reason', async () => {
    const model = await loadModel();
    const cov = mutationCoverage(model);
    const missing = model.rules.filter((r) => r.testable && cov.get(r.id)!.variants.length === 0 && cov.get(r.id)!.pending.length === 0 && !cov.get(r.id)!.reason).map((r) => r.id);
    expect(missing).toEqual([]);
  });

  it('keeps no stale reason: a rule with a reason has no variant, and is testable', async () => {
    const model = await loadModel();
    const cov = mutationCoverage(model);
    for (const id of Object.keys(NO_VARIANT_REASONS) as (keyof typeof NO_VARIANT_REASONS)[]) {
      expect(model.rule(id).testable, id).toBe(true);
      expect(cov.get(id)!.variants, `${id} has a variant now: drop its reason`).toEqual([]);
    }
  });

  it('uses every fault point, or records why it cannot be used', () => {
    expect(unusedFaultPoints().filter((f) => !(f in UNUSABLE_FAULT_POINTS))).toEqual([]);
    for (const f of Object.keys(UNUSABLE_FAULT_POINTS)) {
      expect((FAULT_POINTS as readonly string[]).includes(f), `${f} is no fault point`).toBe(true);
      expect(unusedFaultPoints(), `${f} is used now: drop it from UNUSABLE_FAULT_POINTS`).toContain(f);
    }
  });

  it('fails on a rule with neither variant nor reason (the check above can fail)', async () => {
    const model = await loadModel();
    const withoutTokenVariants = MUTANT_BANK.filter((v) => !inArea(v, 'token'));
    const cov = mutationCoverage(model, withoutTokenVariants, PENDING_BANK);
    expect(cov.get('ERR-TOKEN-GRANT-TYPE-INVALID')!.variants).toEqual([]);
    expect(cov.get('ERR-TOKEN-GRANT-TYPE-INVALID')!.reason).toBeUndefined();
    expect(unusedFaultPoints(withoutTokenVariants)).toContain('token.accept-any-grant-type');
  });

  it('lists pending variants apart from the default bank', async () => {
    // A bank variant handed in as pending (the real pending area changes as its checks land).
    const moved = MUTANT_BANK.find((v) => v.id === 'sepa.active.retrieve-refused')!;
    const cov = mutationCoverage(await loadModel(), MUTANT_BANK.filter((v) => v !== moved), [moved]);
    expect(cov.get('STATE-SEPA-ACTIVE-RETRIEVE')!.pending).toEqual(['sepa.active.retrieve-refused']);
    expect(cov.get('STATE-SEPA-ACTIVE-RETRIEVE')!.variants).not.toContain('sepa.active.retrieve-refused');
  });
});

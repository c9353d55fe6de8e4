// compare between a target whose card tokenization needs no credentials and one that requires the S2S
// token there (the spec shows neither way): each side is sent what its own profile.operation_auth says,
// so with the key the verdicts agree; without it side B's tokenization checks are blocked (naming the
// key), which compare shows as a check verdict difference, never as a failed rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetProfile } from '../profile/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { compareTargets } from './index.ts';

const CHECKS = ['schema.tokenize-card', 'schema.create-recipient-v2'];

describe('compare: tokenization credentials per side', () => {
  let a: ReferenceServer;
  let b: ReferenceServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([startReference(), startReference({ pciAuth: 's2s' })]);
  });
  afterAll(() => Promise.all([a.close(), b.close()]));

  it('each side sends its own operation_auth: the verdicts agree', async () => {
    const r = await compareTargets({ profiles: [a.profile, b.profile], seed: 5, checks: CHECKS, env: {} });
    expect(r.verdicts).toEqual({ rules: [], checks: [] });
    expect([r.targets.a.exitCode, r.targets.b.exitCode]).toEqual([0, 0]);
  });

  it('without it on side B, its checks are blocked naming the key, and no rule fails', async () => {
    const { operation_auth: _omitted, ...rest } = b.profile;
    const r = await compareTargets({ profiles: [a.profile, rest as TargetProfile], seed: 5, checks: CHECKS, env: {} });
    expect(r.verdicts.checks.map((c) => [c.check, c.a, c.b]).sort()).toEqual(CHECKS.map((c) => [c, 'pass', 'blocked']).sort());
    for (const c of r.verdicts.checks) expect(c.detailB).toContain('profile.operation_auth.tokenizeCard');
    expect(r.verdicts.rules.filter((x) => x.b === 'fail')).toEqual([]);
    expect(r.targets.b.summary.failed).toBe(0);
    expect(r.targets.b.summary.blocked).toBe(CHECKS.length);
  });
});

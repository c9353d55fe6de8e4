// Strict mode for readings: where a check accepts an answer only under a reading recorded in
// spec/rules (`readings`) and that answer may hide a fault, the check passes with a warning that quotes
// the rule's sentence, and --strict fails the run. Each case runs one check against the reference with
// the benign variant of that reading (its own options and proxy, from the mutant bank).
import { describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { loadModel } from '../model/index.ts';
import { reading } from '../model/readings.ts';
import type { RuleId } from '../model/types.ts';
import { startInterceptProxy } from '../mutants/proxy.ts';
import { buildMutantBank } from '../mutants/registry.ts';
import type { TargetProfile } from '../profile/types.ts';
import { startReference } from '../reference/index.ts';

interface Case {
  variant: string | undefined;
  check: string;
  rule: RuleId;
  reading: string;
  /** Edits the reference's profile (e.g. drop the documented audience). */
  profile?: (p: TargetProfile) => TargetProfile;
}

const CASES: Case[] = [
  { variant: 'benign.chain.non-numeric-accepted', check: 'identity.s2s.chain-id-missing', rule: 'AUTH-CHAIN-ID-REQUIRED', reading: 'non-numeric-value' },
  { variant: 'benign.sepa.active.new-details-id', check: 'states.sepa.active-retrieve', rule: 'STATE-SEPA-ACTIVE-RETRIEVE', reading: 'same-details-id' },
  { variant: 'idp.unknown-aud.401', check: 'auth.idp.audience', rule: 'ERR-IDP-APP-NOT-REGISTERED', reading: 'refused-401' },
  { variant: 'benign.bank.types-refused', check: 'bank.accounts.types', rule: 'ENDPOINT-BANK-ACCOUNT-TYPES', reading: 'eligibility-refusal' },
  { variant: 'benign.bank.other-type-accepted', check: 'bank.accounts.types', rule: 'ENDPOINT-BANK-ACCOUNT-TYPES', reading: 'other-type' },
  // A bank account webhook naming no details_id, with no bank account read to tie it: accepted, with the warning.
  // The check waits its whole webhook wait for a delivery naming the details_id, which never comes: the
  // profile's wait (webhook_timeout_ms) is 5 s, not the 20 s default; the reference delivers in milliseconds.
  {
    variant: 'benign.bank-account-webhook.no-details-id', check: 'webhooks.activation.bank-account', rule: 'EVENT-BANK-ACCOUNT-DETAILS', reading: 'details-tied',
    profile: (p) => ({ ...p, webhook_timeout_ms: 5000 }),
  },
  { variant: 'ratelimit.above-probe', check: 'limits.token.rate-limit', rule: 'LIMIT-TOKEN-RATE-LIMIT', reading: 'not-reached' },
  { variant: 'benign.token.wrong-type-500', check: 'errors.body.shape', rule: 'ERR-BODY-SHAPE', reading: 'wrong-type-status' },
  // A tampered token on 3DS answered with the section 7 S2S row (401): accepted, with the warning.
  {
    variant: 'benign.token.audience-validated', check: 'auth.s2s.token-response', rule: 'AUTH-S2S-TOKEN-RESPONSE', reading: 'audience-value',
    profile: ({ request_templates: _t, ...p }) => p,
  },
];

async function runCase(c: Case, strict: boolean) {
  const variant = c.variant === undefined ? undefined : buildMutantBank().find((v) => v.id === c.variant);
  if (c.variant !== undefined && !variant) throw new Error(`no variant ${c.variant} in the bank`);
  const ref = await startReference({ ...(variant?.options ?? {}), rateLimit: { perIp: 10, perClient: 10, windowMs: 1000 } });
  const proxy = variant?.proxy ? await startInterceptProxy(ref.profile, variant.proxy) : undefined;
  try {
    let profile: TargetProfile = proxy ? { ...ref.profile, base_url: proxy.baseUrl, control_url: `${proxy.baseUrl}${new URL(ref.profile.control_url!).pathname}` } : ref.profile;
    profile = c.profile ? c.profile(profile) : profile;
    return await runConformance({ profile, env: {}, checks: [c.check], seed: 1, strict });
  } finally {
    await proxy?.close();
    await ref.close();
  }
}

// Each case has its own reference (and proxy): independent, and one waits out a 5 s webhook wait, so at once.
describe.concurrent('readings warn with their sentence; --strict fails them', () => {
  for (const c of CASES) {
    it(`${c.variant ?? 'the reference'}: ${c.check} passes with the ${c.rule} ${c.reading} warning, and --strict exits 1`, async () => {
      const sentence = reading(await loadModel(), c.rule, c.reading).sentence;
      const out = await runCase(c, true);
      const result = out.results.find((r) => r.checkId === c.check)!;
      expect(result.verdict, JSON.stringify(result.failure ?? result.reason)).toBe('pass');
      expect(result.warnings?.some((w) => w.includes(`reading of ${c.rule}`) && w.includes(sentence))).toBe(true);
      expect(out.exitCode).toBe(1);
      expect(out.exitReasons).toEqual(['--strict: 1 check warned']);
    });
  }

  it('no warning where the target takes the strict reading (the reference with the documented audience)', async () => {
    const out = await runCase({ variant: undefined, check: 'auth.s2s.token-response', rule: 'AUTH-S2S-TOKEN-RESPONSE', reading: 'audience-value' }, true);
    expect(out.results[0]).toMatchObject({ verdict: 'pass' });
    expect(out.results[0].warnings).toBeUndefined();
    expect(out.exitCode).toBe(0);
  });
});

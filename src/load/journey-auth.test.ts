// The journey's card tokenization sends what profile.operation_auth says (the spec does not show how
// the card-tokenization environment authenticates), with the journey's own tokens. Against a reference
// that requires a user token there: with the key every journey completes; without it the journeys break
// at tokenizeCard and the notes name the key, not just the step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProfile, type TargetProfile } from '../profile/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { runLoad } from './index.ts';

describe('load journey: tokenization credentials from profile.operation_auth', () => {
  let ref: ReferenceServer;
  beforeAll(async () => {
    ref = await startReference({ pciAuth: 'user' });
  });
  afterAll(() => ref.close());

  it('mode user: the journey sends its user token to {pci_url} and completes', async () => {
    expect(ref.profile.operation_auth).toEqual({ tokenizeCard: { mode: 'user' } });
    const r = await runLoad({ scenario: 'journey', profile: resolveProfile(ref.profile, { env: {} }), connections: 1, durationSec: 1, thinkTimeMs: 10 });
    expect(r.verdict.reasons).toEqual([]);
    expect(r.operations.tokenizeCard.counts['2xx']).toBeGreaterThan(0);
    expect(r.notes.join('\n')).toMatch(/journey: (\d+) journeys started, \1 completed end to end/);
  });

  it('without operation_auth the journeys break at tokenizeCard, naming the key to set', async () => {
    const { operation_auth: _omitted, ...rest } = ref.profile;
    const r = await runLoad({ scenario: 'journey', profile: resolveProfile(rest as TargetProfile, { env: {} }), connections: 1, durationSec: 1, thinkTimeMs: 10 });
    expect(r.operations.tokenizeCard.counts['2xx'] ?? 0).toBe(0);
    expect(r.notes.join('\n')).toMatch(/broken: \d+ at tokenizeCard \(refused for its credentials, profile\.operation_auth\.tokenizeCard is not set\)/);
  });
});

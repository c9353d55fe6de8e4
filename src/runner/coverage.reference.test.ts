// A missing profile field never raises coverage. identity.company.isolation probes the Push to Card
// steps for another company's user only with the card-tokenization environment: without pci_url it
// passes on the rest, which used to count AUTH-COMPANY-ISOLATION as exercised, while a pci_url whose
// tokenization refused blocked the same check (not exercised). So leaving pci_url out raised the figure
// (93.9% -> 94.8% on a sandbox whose tokenization wanted a token the run did not send). Now the part
// left out is recorded as not judged, and a rule judged only in part is not exercised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { startReference } from '../reference/index.ts';

let reference: Awaited<ReturnType<typeof startReference>>;
beforeAll(async () => {
  reference = await startReference();
});
afterAll(() => reference.close());

describe('coverage without pci_url', () => {
  it('does not count AUTH-COMPANY-ISOLATION as exercised when the Push to Card part could not be judged; with pci_url it does', async () => {
    const { pci_url: _left, ...withoutPci } = reference.profile;
    const without = await runConformance({ profile: withoutPci, env: {}, checks: ['identity.company.isolation'], seed: 2 });
    expect(without.results[0]).toMatchObject({ verdict: 'pass', unjudged: [expect.objectContaining({ missing: expect.stringMatching(/profile\.pci_url/) })] });
    expect(without.summary.coverage!.rules).toMatchObject({ exercised: 0, partial: 1 });
    expect(without.summary.coverage!.skippedByReason.map((g) => g.reason)).toContainEqual(expect.stringMatching(/^passed only in part: not judged without profile\.pci_url/));
    const withPci = await runConformance({ profile: reference.profile, env: {}, checks: ['identity.company.isolation'], seed: 2 });
    expect(withPci.results[0].verdict).toBe('pass');
    expect(withPci.results[0].unjudged).toBeUndefined();
    expect(withPci.summary.coverage!.rules).toMatchObject({ exercised: 1, partial: 0 });
  });
});

// Replay of an operation whose authentication the spec does not show (card tokenization): the recorded
// credentials are the recording's (masked in the HAR), so the replay sends what this profile's
// operation_auth says, with a token it mints itself. Against a reference requiring the S2S token on
// pci_url: with the key the replayed tokenization answers as recorded; without it, refused, and noted.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { loadModel } from '../model/index.ts';
import { resolveProfile, type TargetProfile } from '../profile/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { HarReporter } from '../report/index.ts';
import { loadHar, replayHar } from './har-replay.ts';

describe('replay: tokenization credentials from profile.operation_auth', () => {
  let ref: ReferenceServer;
  let harFile: string;
  beforeAll(async () => {
    ref = await startReference({ pciAuth: 's2s' });
    harFile = join(await mkdtemp(join(tmpdir(), 'bc-replay-auth-')), 'run.har');
    const out = await runConformance({ profile: ref.profile, env: {}, checks: ['schema.tokenize-card'], seed: 3, reporters: [new HarReporter(harFile)] });
    expect(out.results[0].verdict).toBe('pass');
  });
  afterAll(() => ref.close());

  const tokenizations = async (profile: TargetProfile) => {
    const model = await loadModel();
    const har = await loadHar(harFile);
    expect(await readFile(harFile, 'utf8')).toMatch(/"value":\s*"Bearer \*\*\*"/);
    const out = await replayHar(har, { profile: resolveProfile(profile, { env: {}, operations: model.operations }), model, allowWrites: true });
    return out.filter((o) => o.operation === 'tokenizeCard');
  };

  it('sends a fresh S2S token as operation_auth says, and the target accepts it as it did the recording', async () => {
    const got = await tokenizations(ref.profile);
    expect(got.length).toBeGreaterThan(0);
    for (const o of got) {
      expect(o).toMatchObject({ status: 'replayed', recordedStatus: 200, newStatus: 200 });
      expect(o.notes).toContain('credentials from profile.operation_auth.tokenizeCard (mode s2s)');
    }
  });

  it('without operation_auth nothing is sent, the target refuses, and the note says the key is not set', async () => {
    const { operation_auth: _omitted, ...rest } = ref.profile;
    const got = await tokenizations(rest);
    expect(got.length).toBeGreaterThan(0);
    for (const o of got) {
      expect(o).toMatchObject({ status: 'replayed', recordedStatus: 200, newStatus: 400 });
      expect(o.notes?.[0]).toMatch(/profile\.operation_auth\.tokenizeCard \(mode none\): not set/);
    }
  });
});

// limits.transport.tls on real HTTPS loopback servers (section 8: "Transport: HTTPS, TLS 1.2 or
// newer"): it passes on `serve --tls` and on a TLS 1.3-only server (1.3 is "newer"), and fails on a
// server that still accepts TLS 1.1 (the bank's transport.tls-accepts-1.1, run through the selftest's
// harness) and on one that offers nothing newer than TLS 1.1. The plain-http case (a warning) is in
// src/runner/warnings.reference.test.ts.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import { serve } from '../../src/cli/commands/serve.ts';
import { loadModel } from '../../src/model/index.ts';
import { creditKills } from '../../src/mutants/scoring.ts';
import { runVariant } from '../../src/mutants/run-variant.ts';
import { variantsById } from '../../src/mutants/registry.ts';
import { LEGACY_CIPHERS } from '../../src/mutants/variants/transport.ts';
import { resolveProfile } from '../../src/profile/index.ts';
import { generateTlsIdentity, startReference, type ReferenceTls } from '../../src/reference/index.ts';
import { runChecks } from '../../src/runner/index.ts';
import { loadChecks } from '../index.ts';

const CHECK = 'limits.transport.tls';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'limits-tls-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function tlsReference(protocol: Pick<ReferenceTls, 'minVersion' | 'maxVersion' | 'ciphers'>) {
  const id = await generateTlsIdentity();
  const caFile = join(dir, `ca-${Math.random().toString(36).slice(2)}.pem`);
  await writeFile(caFile, id.caPem);
  return startReference({ tls: { key: id.keyPem, cert: id.certPem, caFile, ...protocol } });
}

describe('limits.transport.tls on https targets', () => {
  it('passes on `serve --tls`, through a profile file whose ca_file is relative to it', async () => {
    const out: string[] = [];
    const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true }, env: {}, cwd: dir };
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const done = serve({ port: 0, tls: true, profileOut: 'served.json' }, io, stopped);
    try {
      while (out.length === 0) await new Promise((r) => setTimeout(r, 10));
      const profile = JSON.parse(out[0]);
      expect(profile.base_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(profile.pci_url).toMatch(/^https:\/\//);
      expect(profile.ca_file).toBe(join(dir, 'served-ca.pem'));
      expect(await readFile(profile.ca_file, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
      // As a partner would write it: the CA beside the profile, named relative to it.
      const file = join(dir, 'partner.json');
      await writeFile(file, JSON.stringify({ ...profile, ca_file: basename(profile.ca_file) }));
      expect(dirname(file)).toBe(dirname(profile.ca_file));
      const run = await runConformance({ profile: file, env: {}, checks: [CHECK], seed: 1 });
      expect(run.results[0]).toMatchObject({ checkId: CHECK, verdict: 'pass' });
      expect(run.results[0].warnings).toBeUndefined();
      expect(run.exitCode).toBe(0);
    } finally {
      stop();
    }
    expect(await done).toBe(0);
  });

  it('passes on a TLS 1.3-only server: "TLS 1.2 or newer" allows it', async () => {
    const ref = await tlsReference({ minVersion: 'TLSv1.3' });
    try {
      const run = await runConformance({ profile: ref.profile, env: {}, checks: [CHECK], seed: 1 });
      expect(run.results[0]).toMatchObject({ verdict: 'pass' });
    } finally {
      await ref.close();
    }
  });

  it('fails on the bank variant transport.tls-accepts-1.1, credited to its rule', async () => {
    const [variant] = variantsById(['transport.tls-accepts-1.1']);
    const checks = (await loadChecks()).filter((c) => c.id === CHECK);
    const raw = await runVariant(variant, { checks, model: await loadModel(), seed: 1, timeoutBudgetMs: 10_000, checkConcurrency: 1, profile: 'full' });
    expect(raw.error).toBeUndefined();
    expect(raw.failing).toEqual([expect.objectContaining({ checkId: CHECK, rules: ['LIMIT-TRANSPORT-TLS'], message: expect.stringMatching(/negotiated TLSv1(\.1)?; TLS older than 1\.2 must be refused/) })]);
    expect(creditKills(raw.failing, raw.breaks, new Set()).caughtBy).toEqual([CHECK]);
  });

  it('fails on a server that offers nothing newer than TLS 1.1 (the client refuses it too, so no preflight)', async () => {
    const ref = await tlsReference({ minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: LEGACY_CIPHERS });
    try {
      const checks = (await loadChecks()).filter((c) => c.id === CHECK);
      const profile = resolveProfile(ref.profile, { env: {} });
      const out = await runChecks({ profile, model: await loadModel(), seed: 1, preflight: false }, checks, []);
      expect(out.results[0]).toMatchObject({ checkId: CHECK, verdict: 'fail' });
      expect(out.results[0].failure?.message).toMatch(/a TLS 1\.2\+ handshake with 127\.0\.0\.1:\d+ failed: .*PROTOCOL_VERSION/);
    } finally {
      await ref.close();
    }
  });
});

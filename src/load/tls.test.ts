// A load run against an https target signed by a private CA (profile.ca_file, as `serve --tls`
// writes it): setup, the load phase and its answers go over TLS with the CA trusted for the target
// only; without ca_file the same target is refused before any load is sent.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolveProfile } from '../profile/index.ts';
import { generateTlsIdentity, startReference, type ReferenceServer } from '../reference/index.ts';
import { runLoad } from './index.ts';

let dir: string;
let ref: ReferenceServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'load-tls-'));
  const id = await generateTlsIdentity();
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, id.caPem);
  ref = await startReference({ tls: { key: id.keyPem, cert: id.certPem, caFile } });
});
afterAll(async () => {
  await ref?.close();
  await rm(dir, { recursive: true, force: true });
});

it('runs a scenario over HTTPS trusting profile.ca_file', async () => {
  expect(ref.profile.base_url).toMatch(/^https:/);
  const r = await runLoad({ scenario: 'user-read', profile: resolveProfile(ref.profile, { env: {} }), durationSec: 1, connections: 2, maxRequests: 200 });
  expect(r.counts.responses).toBeGreaterThan(0);
  expect(r.counts['2xx']).toBe(r.counts.responses);
  expect(r.counts.errors).toBe(0);
});

it('is refused without ca_file (no process-wide trust)', async () => {
  const { ca_file: _c, ...without } = ref.profile;
  await expect(runLoad({ scenario: 'user-read', profile: resolveProfile(without, { env: {} }), durationSec: 1, connections: 2, maxRequests: 200 })).rejects.toThrow(/certificate|TLS|UNABLE_TO/i);
});

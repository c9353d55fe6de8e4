// limits.transport.tls on real HTTPS loopback servers (section 8: "Transport: HTTPS, TLS 1.2 or
// newer"): it passes on `serve --tls` and on a TLS 1.3-only server (1.3 is "newer"), and fails on a
// server that still accepts TLS 1.1 (the bank's transport.tls-accepts-1.1, run through the selftest's
// harness) and on one that offers nothing newer than TLS 1.1. The plain-http case (a warning) is in
// src/runner/warnings.reference.test.ts.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
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

/**
 * An HTTPS origin that reads the ClientHello first: `close(version)` decides, from the highest version
 * the hello offers (legacy_version 0x0301 TLS 1.0, 0x0302 TLS 1.1, 0x0303 TLS 1.2 and later), whether
 * the socket is destroyed with no alert (Python's ssl, many load balancers) or relayed to a TLS server
 * taking TLS 1.0 to 1.3.
 */
async function helloGate(close: (legacyVersion: number) => boolean): Promise<{ url: string; hellos: number[]; stop: () => Promise<void> }> {
  const id = await generateTlsIdentity();
  const tlsServer = createTlsServer({ key: id.keyPem, cert: id.certPem, minVersion: 'TLSv1', ciphers: LEGACY_CIPHERS });
  tlsServer.on('tlsClientError', () => undefined);
  const hellos: number[] = [];
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', (buf: Buffer) => {
      // Record header (5 bytes), handshake header (4 bytes), then the ClientHello's legacy_version.
      const version = buf.length >= 11 && buf[0] === 0x16 && buf[5] === 0x01 ? buf.readUInt16BE(9) : 0;
      hellos.push(version);
      if (close(version)) return void socket.destroy();
      // Relayed byte for byte to the TLS server behind (a TLS socket cannot take over bytes already read).
      const back = connect((tlsServer.address() as AddressInfo).port, '127.0.0.1', () => {
        back.write(buf);
        socket.pipe(back).pipe(socket);
      });
      sockets.add(back);
      back.on('close', () => sockets.delete(back));
      back.on('error', () => socket.destroy());
      socket.on('close', () => back.destroy());
    });
  });
  await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    hellos,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
      await new Promise((r) => tlsServer.close(r));
    },
  };
}

async function tlsCheckOn(url: string) {
  const checks = (await loadChecks()).filter((c) => c.id === CHECK);
  const profile = resolveProfile({ base_url: url, clients: [{ client_id: 'c', client_secret: 's-secret' }] }, { env: {} });
  const out = await runChecks({ profile, model: await loadModel(), seed: 1, preflight: false }, checks, []);
  return out.results[0];
}

describe('limits.transport.tls when old versions are refused by a closed connection (reading closed-refusal)', () => {
  it('passes when the origin closes the TLS 1.0/1.1 ClientHello with no alert and completes TLS 1.2+ handshakes before and after', async () => {
    const gate = await helloGate((v) => v < 0x0303);
    try {
      const result = await tlsCheckOn(gate.url);
      expect(result).toMatchObject({ checkId: CHECK, verdict: 'pass' });
      expect(result.warnings).toBeUndefined();
      // 1.2+, the old hello (closed), 1.2+ again: the pass rests on the bracketing handshakes.
      expect(gate.hellos.map((v) => v >= 0x0303)).toEqual([true, false, true]);
    } finally {
      await gate.stop();
    }
  });

  it('fails when the same origin accepts the TLS 1.0/1.1 ClientHello', async () => {
    const gate = await helloGate(() => false);
    try {
      const result = await tlsCheckOn(gate.url);
      expect(result).toMatchObject({ checkId: CHECK, verdict: 'fail' });
      expect(result.failure?.message).toMatch(/negotiated TLSv1(\.1)?; TLS older than 1\.2 must be refused/);
    } finally {
      await gate.stop();
    }
  });

  it('skips, never passes, when the origin closes every handshake (down for all versions)', async () => {
    const gate = await helloGate(() => true);
    try {
      const result = await tlsCheckOn(gate.url);
      expect(result).toMatchObject({ checkId: CHECK, verdict: 'skip' });
      expect(result.reason).toMatch(/TLS 1\.2\+ handshake .* ended by a closed connection, with no TLS alert.*may be down/);
    } finally {
      await gate.stop();
    }
  });

  it('skips, never passes, when the origin goes down right after the old ClientHello (no TLS 1.2+ handshake after it)', async () => {
    let down = false;
    const gate = await helloGate((v) => {
      if (v < 0x0303) down = true;
      return down;
    });
    try {
      const result = await tlsCheckOn(gate.url);
      expect(result).toMatchObject({ checkId: CHECK, verdict: 'skip' });
      expect(result.reason).toMatch(/closed connection .* the TLS 1\.2\+ handshake after it did not succeed/);
    } finally {
      await gate.stop();
    }
  });
});

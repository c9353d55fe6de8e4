// `baas-conform doctor` on loopback against the reference: a healthy profile exits 0 and unlocks
// nothing more; a profile without pci_url, control and clients[1] names what each would unlock (the
// checks the needs table gives); a wrong secret exits 2; an unreachable base_url exits 3. No secret is
// printed, and doctor changes nothing on the target (no control operation is called).

import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import type { TargetProfile } from '../profile/types.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { loadChecks } from '../../suites/index.ts';

let ref: ReferenceServer;
let dir: string;
beforeAll(async () => {
  ref = await startReference({ name: 'doctor reference' });
  dir = await mkdtemp(join(tmpdir(), 'bc-doctor-'));
});
afterAll(() => ref.close());

async function doctor(profile: TargetProfile, extra: string[] = []) {
  const file = join(dir, `p-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(profile));
  const c = captureIo({ env: {}, cwd: dir });
  const code = await main(['doctor', '--profile', file, ...extra], c.io);
  return { code, out: c.out(), err: c.err() };
}

const secrets = (p: TargetProfile) => [...p.clients.map((c) => c.client_secret), p.s2s_signing_secret!, p.user_token_signing_secret!];

describe('baas-conform doctor', () => {
  it('a healthy profile: exit 0, every probe ok, nothing more to unlock, no secret printed', async () => {
    const r = await doctor(ref.profile);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/ok\s+token \(clients\[0\]\)/);
    expect(r.out).toMatch(/ok\s+token \(clients\[1\]\)/);
    expect(r.out).toMatch(/ok\s+S2S read: GET \/api\/v1\/config answered HTTP 200/);
    expect(r.out).toMatch(/ok\s+pci_url: .* answers/);
    expect(r.out).toMatch(/ok\s+control: profile\.control_url performs \d+ operation\(s\): setWebhookBaseUrl, /);
    expect(r.out).not.toMatch(/PROBLEM|missing/);
    expect(r.out).toContain('Nothing more to unlock');
    for (const s of secrets(ref.profile)) expect(r.out).not.toContain(s);
  });

  it('names what a missing pci_url, control and second client would unlock, with the checks of the needs table', async () => {
    const { pci_url: _p, control_url: _c, clients, ...rest } = ref.profile;
    const r = await doctor({ ...rest, clients: [clients[0]], idp: { enabled: false } }, ['--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { unlocks: { need: string; unlock: string; checks: string[] }[]; checks: { total: number; runnable: number } };
    const checks = await loadChecks();
    const needing = (need: string) => checks.filter((c) => c.needs?.includes(need as never)).map((c) => c.id).sort();
    for (const need of ['pci', 'two_clients', 'control:advanceClock', 'idp']) {
      expect(report.unlocks.find((u) => u.need === need)).toMatchObject({ checks: needing(need) });
    }
    expect(report.unlocks.find((u) => u.need === 'pci')?.unlock).toContain('pci_url');
    expect(report.checks.runnable).toBeLessThan(report.checks.total);
    const text = await doctor({ ...rest, clients: [clients[0]] });
    expect(text.out).toMatch(/missing\s+pci_url: not set/);
    expect(text.out).toMatch(/- pci_url; where the sandbox protects card tokenization, also operation_auth\.tokenizeCard \(its authentication is not shown\): \d+ check\(s\): /);
  });

  it('a sandbox protecting card tokenization, operation_auth not set: the probe is refused for its credentials and names the checks operation_auth.tokenizeCard unlocks', async () => {
    const guarded = await startReference({ name: 'doctor pci auth', pciAuth: 's2s' });
    try {
      const { operation_auth: _a, ...rest } = guarded.profile;
      const r = await doctor(rest as TargetProfile, ['--json']);
      expect(r.code).toBe(0);
      const report = JSON.parse(r.out) as { probes: { what: string; status: string; detail: string }[]; unlocks: { need: string; unlock: string; reason: string; checks: string[] }[]; checks: { total: number; runnable: number } };
      expect(report.probes.find((p) => p.what === 'operation_auth.tokenizeCard')).toMatchObject({ status: 'problem' });
      const checks = await loadChecks();
      const pci = checks.filter((c) => c.needs?.includes('pci')).map((c) => c.id);
      const row = report.unlocks.find((u) => u.need === 'pci');
      expect(row?.unlock).toContain('profile.operation_auth.tokenizeCard');
      expect(row?.reason).toMatch(/refused for its credentials/);
      expect(row?.checks).toEqual(expect.arrayContaining(pci));
      expect(report.checks.runnable).toBeLessThanOrEqual(report.checks.total - pci.length);
      const text = await doctor(rest as TargetProfile);
      expect(text.out).toMatch(/PROBLEM\s+operation_auth\.tokenizeCard: POST \/b2b\/cards\/oct on pci_url \(an empty body: nothing is created\) was refused for its credentials: HTTP \d+/);
      expect(text.out).not.toMatch(/(\d+) of \1 checks can run/);
      // With operation_auth given, the same probe is not a refusal and nothing is left to unlock on that count.
      const given = await doctor(guarded.profile, ['--json']);
      const ok = JSON.parse(given.out) as typeof report;
      expect(ok.probes.find((p) => p.what === 'operation_auth.tokenizeCard')).toMatchObject({ status: 'ok' });
      expect(ok.unlocks.find((u) => u.need === 'pci')).toBeUndefined();
    } finally {
      await guarded.close();
    }
  });

  it('the tokenization probe sends one request with no card in it (doctor changes nothing), and a 401 reads as a refusal', async () => {
    const seen: { method?: string; url?: string; body: string }[] = [];
    const pci = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, body });
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"Not authenticated"}');
      });
    });
    await new Promise<void>((r) => pci.listen(0, '127.0.0.1', r));
    try {
      const { operation_auth: _a, ...rest } = ref.profile;
      const r = await doctor({ ...rest, pci_url: `http://127.0.0.1:${(pci.address() as { port: number }).port}` }, ['--json']);
      const report = JSON.parse(r.out) as { probes: { what: string; status: string; detail: string }[] };
      expect(report.probes.find((p) => p.what === 'operation_auth.tokenizeCard')).toMatchObject({ status: 'problem', detail: expect.stringContaining('HTTP 401') });
      const posts = seen.filter((x) => x.method === 'POST');
      expect(posts).toHaveLength(1);
      expect(posts[0].url).toBe('/b2b/cards/oct');
      expect(posts[0].body === '' || posts[0].body === '{}').toBe(true);
    } finally {
      await new Promise<void>((r) => pci.close(() => r()));
    }
  });

  it('lists a control adapter module\'s operations without calling any; an operation it lacks is named with the checks it would unlock', async () => {
    const mod = join(dir, 'adapter.mjs');
    const calls = join(dir, 'calls.txt');
    await writeFile(mod, `import { appendFileSync } from 'node:fs';\nconst record = (id) => async () => { appendFileSync(${JSON.stringify(calls)}, id + '\\n'); };\nexport const operations = { setWebhookBaseUrl: record('setWebhookBaseUrl'), advanceClock: record('advanceClock') };\n`);
    const { control_url: _c, ...rest } = ref.profile;
    const r = await doctor({ ...rest, control_adapter: mod, idp: { enabled: false } });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/ok\s+control: control adapter module .*adapter\.mjs performs 2 operation\(s\): setWebhookBaseUrl, advanceClock/);
    expect(r.out).toMatch(/ok\s+webhooks: a loopback receiver is registered per run through setWebhookBaseUrl/);
    expect(r.out).toMatch(/- control adapter maps create3dsChallenge .*: \d+ check\(s\): /);
    expect(r.out).not.toMatch(/- control adapter maps advanceClock /);
    expect(existsSync(calls)).toBe(false);
  });

  it('a wrong secret: exit 2, saying the token was refused, the wrong secret not printed', async () => {
    const wrong = 'definitely-not-the-secret-123';
    const r = await doctor({ ...ref.profile, clients: [{ ...ref.profile.clients[0], client_secret: wrong }, ref.profile.clients[1]] });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/PROBLEM\s+token \(clients\[0\]\): the target rejected profile\.clients\[0\]/);
    expect(r.out).toContain('refused the token');
    expect(r.out).not.toContain(wrong);
  });

  it('an unreachable base_url: exit 3, saying so', async () => {
    // A port that was free a moment ago: nothing listens there.
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const r = await doctor({ ...ref.profile, base_url: `http://127.0.0.1:${port}` });
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/PROBLEM\s+token \(clients\[0\]\): cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused/);
    expect(r.out).toContain('cannot be reached');
  });

  it('a webhooks.listen address that cannot be bound is a problem line', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    try {
      const { control_url: _c, ...rest } = ref.profile;
      const r = await doctor({ ...rest, webhooks: { listen: `127.0.0.1:${port}`, public_url: 'http://127.0.0.1:1' } });
      expect(r.out).toMatch(new RegExp(`PROBLEM\\s+webhooks: webhooks.listen 127.0.0.1:${port} cannot be bound: EADDRINUSE`));
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});

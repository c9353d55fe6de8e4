// The "done when" on the embedded reference: a certified package holds the run's transcript
// with no secret in it (the scan), re-judges offline with every verdict reproduced or listed as not
// re-judgeable with its reason, one edited answer flips exactly the verdicts that received it, a
// disclosed e-mail address is confirmed by its salt alone, and verify refuses an expired package.
import { cp, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import type { Har } from '../report/har.ts';
import { certify, rejudgePackage, verifyPackage, type RejudgeReport } from './index.ts';
import { luhn, PAN_LIKE } from './transcript.ts';

async function cli(argv: string[], cwd: string) {
  const c = captureIo({ cwd });
  const code = await main(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

let ref: ReferenceServer;
let root = '';
let pkg = '';
let baseline: RejudgeReport;
beforeAll(async () => {
  ref = await startReference();
  root = await mkdtemp(path.join(tmpdir(), 'bc-rejudge-'));
  pkg = path.join(root, 'pkg');
  await certify({ outDir: pkg, profile: ref.profile, env: {}, seed: 21 });
  baseline = await rejudgePackage(pkg);
}, 600_000);
afterAll(() => ref?.close());

describe('a certified package of the reference', () => {
  it('declares its scope and lists what rests on the signature alone', async () => {
    const cert = JSON.parse(await readFile(path.join(pkg, 'certificate.json'), 'utf8'));
    expect(cert.scope).toMatchObject({ baseUrl: ref.profile.base_url, spec: { digest: cert.spec.digest, version: '1' }, tool: { name: 'baas-conform' }, validDays: 365 });
    expect(cert.scope.rules.ids.length).toBe(cert.scope.rules.count);
    expect(Date.parse(cert.scope.validUntil) - Date.parse(cert.scope.issued)).toBe(365 * 86_400_000);
    expect(cert.transcript).toMatchObject({ file: 'transcript.har', entries: expect.any(Number) });
    const listed = new Map(cert.rejudge.notOffline.map((n: { checkId: string; reason: string }) => [n.checkId, n.reason]));
    expect(listed.get('webhooks.delivery.json-post')).toMatch(/not in the transcript/);
    expect(listed.get('limits.s2s.token-validity')).toMatch(/wall clock/);
    expect([...listed.values()].every((r) => typeof r === 'string' && r.length > 20)).toBe(true);
  });

  it('the scan of every file finds no bearer token, no private key, no PAN-like string, no profile secret', async () => {
    const secrets = [...ref.profile.clients.map((c) => c.client_secret), ref.profile.s2s_signing_secret].filter((s): s is string => !!s);
    const files = await readdir(pkg);
    expect(files).toContain('transcript.har');
    for (const f of files) {
      const text = await readFile(path.join(pkg, f), 'utf8');
      // A JWT keeps its claims; its signature slot holds a commitment, so it is no credential.
      for (const m of text.matchAll(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.([A-Za-z0-9_-]*)/g)) expect(m[1], f).toMatch(/^cmt-token-[a-p]{40}$/);
      // A credential after Bearer (prose such as "Bearer token is not ..." is not one).
      for (const m of text.matchAll(/\bBearer\s+([A-Za-z0-9._~+/=-]{16,})/g)) expect(m[1], f).toMatch(/^(cmt\.token\.[a-p]{40}|eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.cmt-token-[a-p]{40})$/);
      expect(text, f).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
      expect(text, f).not.toMatch(/"d"\s*:\s*"[A-Za-z0-9_-]{20,}"/);
      for (const m of text.matchAll(PAN_LIKE)) expect(luhn(m[0].replace(/[ -]/g, '')), `${f}: ${m[0]}`).toBe(false);
      for (const s of secrets) expect(text.includes(s), f).toBe(false);
      expect(text, f).not.toContain('***');
    }
    const har = JSON.parse(await readFile(path.join(pkg, 'transcript.har'), 'utf8')) as Har;
    const texts = har.log.entries.map((e) => `${e.request.postData?.text ?? ''} ${e.response.content.text ?? ''}`).join('\n');
    expect(texts).not.toMatch(/[A-Za-z0-9._%+-]+@(?!commit\.invalid)[A-Za-z0-9-]+\.[A-Za-z]{2,}/);
    expect(texts).toMatch(/cmt\.email\.[a-p]{40}@commit\.invalid/);
  });

  it('re-judges offline: every verdict reproduced, or listed as not re-judgeable with its reason', () => {
    expect(baseline.seed).toBe(21);
    expect(baseline.reproduced.length).toBeGreaterThan(90);
    expect(baseline.differs, JSON.stringify(baseline.differs, null, 1)).toEqual([]);
    const listed = new Set(baseline.notRejudgeable.map((n) => n.checkId));
    for (const v of [...baseline.reproduced, ...baseline.differs]) expect(listed.has(v.checkId)).toBe(false);
    expect(baseline.unknown).toEqual([]);
  });

  it('one edited answer flips exactly the verdicts that received it', async () => {
    const copy = path.join(root, 'tampered');
    await cp(pkg, copy, { recursive: true });
    const file = path.join(copy, 'transcript.har');
    const har = JSON.parse(await readFile(file, 'utf8')) as Har;
    // The token endpoint's "client id is required" row: its 400 answer now says another message.
    const n = har.log.entries.findIndex((e) => e._check === 'errors.token.client-id-missing' && e.response.status === 400) + 1;
    expect(n).toBeGreaterThan(0);
    const entry = har.log.entries[n - 1];
    entry.response.content.text = entry.response.content.text!.replace('client id is required', 'client id is missing');
    await writeFile(file, JSON.stringify(har, null, 2));
    const received = new Set([...baseline.reproduced, ...baseline.differs].filter((v) => v.entries.includes(n)).map((v) => v.checkId));
    expect([...received]).toEqual(['errors.token.client-id-missing']);
    const after = await rejudgePackage(copy);
    const flipped = baseline.reproduced.filter((v) => !after.reproduced.some((a) => a.checkId === v.checkId)).map((v) => v.checkId);
    expect(flipped).toEqual([...received]);
    expect(after.differs.find((d) => d.checkId === 'errors.token.client-id-missing')?.reason).toMatch(/client id is required/);
    // The signature says the package was changed, naming the file.
    await expect(verifyPackage(copy)).rejects.toThrow(/transcript\.har: changed/);
  }, 300_000);

  it('verify --reveal confirms a disclosed e-mail address with its salt alone; another address is refused', async () => {
    // An address the run registered: the reference still knows the user, by the id the transcript shows in clear.
    const har = JSON.parse(await readFile(path.join(pkg, 'transcript.har'), 'utf8')) as Har;
    const created = har.log.entries.find((e) => e.request.url.endsWith('/api/v1/user') && e.request.method === 'POST' && e.response.status === 200)!;
    const userId = JSON.parse(created.response.content.text!).user_id as string;
    // The user belongs to one of the two companies: ask as each.
    let email: string | undefined;
    for (const client of ref.profile.clients.slice(0, 2)) {
      const token = await fetch(`${ref.profile.base_url}/api/v1/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: client.client_id, client_secret: client.client_secret, grant_type: 'client_credentials' }) }).then((r) => r.json() as Promise<{ access_token: string }>);
      const res = await fetch(`${ref.profile.base_url}/api/v1/user`, { headers: { authorization: `Bearer ${token.access_token}`, 'x-user-id': userId, 'x-chain-id': String(ref.profile.chain_id ?? '84532') } });
      if (res.ok) email ??= ((await res.json()) as { email?: string }).email;
    }
    expect(email).toMatch(/@/);
    const user = { email: email! };
    const one = path.join(root, 'reveal.json');
    const made = await cli(['verify', pkg, '--reveal', `email=${user.email}`, '--salts', `${pkg}.salts.json`, '--write-reveal', one], root);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toMatch(/REVEALED email: the value given is the one committed as cmt\.email\.[a-p]{40}@commit\.invalid, in .*transcript\.har/);
    const reveal = JSON.parse(await readFile(one, 'utf8'));
    expect(Object.keys(reveal.salts)).toHaveLength(1);
    // A third party with the package, the value and the reveal file only.
    const third = await cli(['verify', pkg, '--reveal', `email=${user.email}`, '--salts', one], root);
    expect(third.code, third.err).toBe(0);
    const wrong = await cli(['verify', pkg, '--reveal', 'email=mallory@example.com', '--salts', one], root);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/no email commitment of the package opens to the value given/);
  }, 120_000);

  it('verify fails on an expired package, naming the date', async () => {
    const cert = JSON.parse(await readFile(path.join(pkg, 'certificate.json'), 'utf8'));
    const later = new Date(Date.parse(cert.scope.validUntil) + 1000);
    await expect(verifyPackage(pkg, { now: later })).rejects.toThrow(`certificate.json: expired on ${cert.scope.validUntil}`);
    await expect(verifyPackage(pkg)).resolves.toMatchObject({ validUntil: cert.scope.validUntil });
  });
});

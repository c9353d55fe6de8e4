// The toolkit tried as a newcomer would, against a Partner API sandbox it never saw being written: the
// Python sandbox of python-sandbox/ (standard library only, its own /sandbox/v1 simulation API), mapped by
// the profile make-profile.py writes and the JS adapter written from the docs alone. The conformant
// sandbox must come out clean (>= 95% of testable rules exercised, nothing failed or blocked, every skip
// with its reason); each of its fault modes must be caught on the rule whose sentence it breaks.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'python-sandbox');
const START_MS = 15_000;
const hasPython = spawnSync('python3', ['--version']).status === 0;
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
  delete process.env.PYSANDBOX_API_URL;
  delete process.env.PYSANDBOX_API_KEY;
});

/** Starts the sandbox (ephemeral ports) and writes its profile; the adapter's settings go to process.env. */
async function sandbox(args: string[] = []): Promise<{ profile: string }> {
  const child = spawn('python3', [join(DIR, 'sandbox.py'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`python sandbox printed nothing in ${START_MS} ms: ${stderr}`)), START_MS);
    child.once('exit', (code) => reject(new Error(`python sandbox exited (${code}) before printing its URLs: ${stderr}`)));
    createInterface({ input: child.stdout! }).once('line', (l) => { clearTimeout(timer); resolve(l); });
  });
  const dir = await mkdtemp(join(tmpdir(), 'bc-pysandbox-'));
  await writeFile(join(dir, 'line.json'), line);
  const made = spawnSync('python3', [join(DIR, 'make-profile.py'), join(dir, 'line.json'), join(dir, 'profile.json')], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  for (const [, key, value] of made.stdout.matchAll(/(PYSANDBOX_API_\w+)=(\S+)/g)) process.env[key] = value;
  JSON.parse(await readFile(join(dir, 'profile.json'), 'utf8'));
  return { profile: join(dir, 'profile.json') };
}

describe.skipIf(!hasPython && process.env.CI !== 'true')('an independent Python sandbox, through the docs only', () => {
  it('is conformant: >= 90% of testable rules exercised, nothing failed or blocked, every skip a path or webhook kind it does not offer', async () => {
    const { profile } = await sandbox();
    const out = await runConformance({ profile, env: {}, numRuns: 2 });
    const notPassed = out.results.filter((r) => r.verdict === 'fail' || r.verdict === 'blocked')
      .map((r) => `${r.checkId} ${r.verdict}: ${r.failure?.message ?? r.reason ?? JSON.stringify((r as { blocked?: unknown }).blocked) ?? ''}`.slice(0, 400));
    expect(notPassed).toEqual([]);
    expect(out.results.filter((r) => r.verdict === 'skip' && !r.reason?.trim()).map((r) => r.checkId)).toEqual([]);
    // The sandbox was written before the rules on the operations whose paths the spec does not show and on
    // the debt-cases, corporations and card limit webhooks: its profile gives none of those paths and its
    // control refuses those kinds (4xx). Those, and only those, are what it leaves unexercised.
    const skipped = out.results.filter((r) => r.verdict === 'skip').map((r) => `${r.checkId}: ${r.reason}`);
    const unexplained = skipped.filter((s) => !/not given: the spec does not show its path|cannot emit the [\w-]+ webhook|card limit webhook path is not shown by the spec/.test(s));
    expect(unexplained).toEqual([]);
    expect(out.summary.coverage!.exercisedShareOfTestable, skipped.join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(out.exitCode).toBe(0);
  }, 240_000);

  it('leaves the sandbox as it found it: a second run against the same sandbox is as clean (resetClock)', async () => {
    const { profile } = await sandbox();
    // The token lifetime moves the clock two days; the identity-provider tokens and the limits are minted
    // and counted on real time, so a clock left moved would fail them on the next run.
    const checks = ['limits.s2s.*', 'auth.idp.exchange', 'limits.token.rate-limit'];
    for (const run of [1, 2]) {
      const out = await runConformance({ profile, env: {}, numRuns: 1, checks });
      expect({ run, notPassed: out.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.checkId} ${r.verdict}: ${r.failure?.message ?? r.reason ?? ''}`) }).toEqual({ run, notPassed: [] });
      expect(out.summary.sandbox?.clock).toMatchObject({ restored: true });
    }
  }, 180_000);

  it('with --pydantic-422 (422 where no section 7 row fixes a status) and --iso-timestamps the checks still pass', async () => {
    const { profile } = await sandbox(['--pydantic-422', '--iso-timestamps']);
    // The mode is on: a body that is not JSON (no section 7 row) is answered 422 in the section 7 shape.
    const { base_url: base } = JSON.parse(await readFile(profile, 'utf8')) as { base_url: string };
    const probe = await fetch(`${base}/api/v1/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"client_id":' });
    expect({ status: probe.status, body: await probe.json() }).toMatchObject({ status: 422, body: { error_category: { http_status_code: 422 } } });
    const out = await runConformance({ profile, env: {}, numRuns: 2, checks: ['errors.body.shape', 'bank.*', 'aliases.mismatch.*', 'limits.withdrawal.*', 'states.withdrawal.*'] });
    // bank.corridor.estimate needs a path the sandbox's profile does not give (the spec does not show it).
    const notPassed = out.results.filter((r) => r.verdict !== 'pass' && !(r.verdict === 'skip' && /not given: the spec does not show its path/.test(r.reason ?? '')));
    expect(notPassed.map((r) => `${r.checkId} ${r.verdict}: ${r.failure?.message ?? r.reason ?? ''}`)).toEqual([]);
    expect(out.results.filter((r) => r.verdict === 'pass').length).toBeGreaterThan(3);
  }, 120_000);

  // One deliberate non-conformance per mode, each caught on the rule whose sentence it breaks.
  it.each([
    ['drop-alias', 'aliases.user.*', 'aliases.user.read-wallet-address', 'ALIAS-USER-READ-WALLET-ADDRESS'],
    ['chain-field', 'bank.chain.*', 'bank.chain.not-numeric', 'ERR-CHAIN-NOT-NUMERIC'],
    ['replay-3ds', 'states.3ds.no-replay', 'states.3ds.no-replay', 'STATE-3DS-NO-REPLAY'],
    ['token-24h', 'limits.s2s.token-validity', 'limits.s2s.token-validity', 'LIMIT-S2S-TOKEN-VALIDITY'],
    ['first-user-header', 'identity.s2s.user-identifier-multiple', 'identity.s2s.user-identifier-multiple', 'ERR-S2S-USER-IDENTIFIER-MULTIPLE'],
    ['reopen-card', 'cards.close.terminal', 'cards.close.terminal', 'STATE-CARD-CLOSE-TERMINAL'],
    // valid_after in ISO 8601 (Pydantic's datetime; section 2 does not show the format) is read, not skipped
    ['no-delay --iso-timestamps', 'limits.withdrawal.*', 'limits.withdrawal.delay', 'LIMIT-WITHDRAWAL-DELAY'],
  ])('with --fault %s, %s fails %s on %s', async (fault, checks, checkId, rule) => {
    const { profile } = await sandbox(['--fault', ...fault.split(' ')]);
    const out = await runConformance({ profile, env: {}, numRuns: 2, checks: [checks] });
    const failed = out.results.filter((r) => r.verdict === 'fail');
    expect(failed.map((r) => r.checkId)).toContain(checkId);
    expect(failed.flatMap((r) => r.failure?.rules ?? [])).toContain(rule);
    expect(out.exitCode).toBe(1);
  }, 120_000);

  it.skipIf(!hasOpenssl)('over HTTPS, refusing TLS 1.0/1.1 by closing the connection, passes limits.transport.tls', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bc-pysandbox-tls-'));
    const { profile } = await sandbox(['--tls-dir', dir]);
    const out = await runConformance({ profile, env: {}, numRuns: 1, checks: ['limits.transport.tls', 'auth.s2s.*'] });
    expect(out.results.map((r) => `${r.checkId} ${r.verdict} ${r.reason ?? r.failure?.message ?? ''}`.trim()))
      .toEqual(out.results.map((r) => `${r.checkId} pass`));
  }, 120_000);
});

// The toolkit tried as a newcomer would, against a Partner API sandbox it never saw being written: the
// Python sandbox of python-sandbox/ (standard library only, its own /sandbox/v1 simulation API), mapped by
// the profile make-profile.py writes and the JS adapter written from the docs alone. The conformant
// sandbox must come out clean (>= 95% of testable rules exercised, nothing failed or blocked, every skip
// with its reason); the same sandbox with one fault switched on must be caught on the rule it breaks.

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
  it('is conformant: >= 95% of testable rules exercised, nothing failed or blocked, every skip says why', async () => {
    const { profile } = await sandbox();
    const out = await runConformance({ profile, env: {}, numRuns: 2 });
    const notPassed = out.results.filter((r) => r.verdict === 'fail' || r.verdict === 'blocked')
      .map((r) => `${r.checkId} ${r.verdict}: ${r.failure?.message ?? r.reason ?? ''}`.slice(0, 400));
    expect(notPassed).toEqual([]);
    expect(out.results.filter((r) => r.verdict === 'skip' && !r.reason?.trim()).map((r) => r.checkId)).toEqual([]);
    expect(out.summary.coverage!.exercisedShareOfTestable).toBeGreaterThanOrEqual(0.95);
    expect(out.exitCode).toBe(0);
  }, 240_000);

  it('with --fault drop-alias (user reads lose wallet_address) fails on ALIAS-USER-READ-WALLET-ADDRESS', async () => {
    const { profile } = await sandbox(['--fault', 'drop-alias']);
    const out = await runConformance({ profile, env: {}, numRuns: 2, checks: ['aliases.user.*'] });
    const failed = out.results.filter((r) => r.verdict === 'fail');
    expect(failed.map((r) => r.checkId)).toContain('aliases.user.read-wallet-address');
    expect(failed.flatMap((r) => r.failure?.rules ?? [])).toContain('ALIAS-USER-READ-WALLET-ADDRESS');
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

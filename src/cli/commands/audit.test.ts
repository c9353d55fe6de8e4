import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { cliEntry } from '../../../test/cli-bundle.ts';
import { runPartnerFlow } from '../../audit/bank/index.ts';
import { main } from '../index.ts';

const io = (out: string[], err: string[]) => ({ stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env: {}, cwd: process.cwd() });

describe('baas-conform audit', () => {
  it.each([
    [['--duration', '-1'], /--duration/],
    [['--webhook-url', 'ftp://x'], /--webhook-url/],
    [['--faults', 'no-such-plan.yaml'], /audit plan .*no-such-plan\.yaml at \/: cannot read the file \(no such file\)/],
    [['--port', '70000'], /--port/],
    [['--min-exercised', '1.5'], /--min-exercised must be a whole number of client rules from 0 to 100/],
  ])('exits 2 on a usage error (%j)', async (args, message) => {
    const out: string[] = [];
    const err: string[] = [];
    expect(await main(['audit', ...args], io(out, err))).toBe(2);
    expect(err.join('')).toMatch(message);
  });

  // The two child processes below (the bundled CLI: test/cli-bundle.ts) start side by side: each
  // mostly waits (the audit's duration, the client's flow).
  it.concurrent('an audit no client called judged nothing: the process exits 4 with --strict too, INCONCLUSIVE in its own words and in every report', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-nothing-'));
    const child = spawn(process.execPath, [cliEntry(), 'audit', '--duration', '1', '--strict', '--report-dir', dir], { cwd: join(import.meta.dirname, '..', '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    // Without --strict, the same, in-process (main returns what the process exits with), while the child runs.
    const o: string[] = [];
    const inProcess = main(['audit', '--duration', '1', '--report-dir', await mkdtemp(join(tmpdir(), 'audit-nothing-'))], io(o, []));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(4);
    expect(out).toMatch(/0 passed, 0 failed, 0 warnings \(failing: --strict\), \d+ not exercised, \d+ untestable; 0 exchanges recorded\nINCONCLUSIVE: the audit judged nothing because no exchange was recorded: no client called base_url or pci_url of the printed profile before the audit ended \(exit 4\)\n/);
    expect(out).not.toMatch(/PASSED/);
    const json = JSON.parse(await readFile(join(dir, 'audit.json'), 'utf8'));
    expect(json).toMatchObject({ exit_code: 4, verdict: 'inconclusive', inconclusive: expect.stringMatching(/^INCONCLUSIVE: the audit judged nothing because no exchange was recorded/) });
    expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toMatch(/errors="1"[\s\S]*<testcase classname="client-audit" name="audit.verdict"><error message="INCONCLUSIVE: the audit judged nothing/);
    expect(await readFile(join(dir, 'audit.html'), 'utf8')).toMatch(/<h1>Client audit: <span class="v-inconclusive" data-value="verdict">inconclusive<\/span> \(strict\)<\/h1>/);
    expect(await inProcess).toBe(4);
    expect(o.join('')).toMatch(/INCONCLUSIVE: the audit judged nothing because no exchange was recorded/);
  }, 60_000);

  it.concurrent('prints the profile first, judges the client until SIGTERM, writes the three reports and exits 1 on a broken rule', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-'));
    // A plan without waits (--faults): the broken rule here is the chain's JSON type, which no timing
    // decides; the default plan's waits (Retry-After 3 s and 2 s, a 4 s stall) are the bank's to judge.
    const plan = join(dir, 'no-waits.yaml');
    await writeFile(plan, 'token_bursts: []\nretry_after: []\nother_burst: null\nstall: null\n');
    const child = spawn(process.execPath, [cliEntry(), 'audit', '--faults', plan, '--report-dir', dir], { cwd: join(import.meta.dirname, '..', '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const profile = JSON.parse(first);
    expect(profile).toMatchObject({ side: 'client', chain_id: expect.any(String), credentials: { client_id: expect.any(String) } });
    await runPartnerFlow(profile, { mode: 'chain-number', durationMs: 0 });
    const code = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await code).toBe(1);
    const json = JSON.parse(await readFile(join(dir, 'audit.json'), 'utf8'));
    expect(json.rules.filter((r: any) => r.outcome === 'fail').map((r: any) => r.id)).toEqual(['CLIENT-CHAIN-STRING']);
    // The plan given was the one imposed: no 429 carried a Retry-After.
    expect(json.rules.find((r: any) => r.id === 'CLIENT-RETRY-AFTER').outcome).toBe('not-exercised');
    expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testcase classname="client-audit" name="CLIENT-CHAIN-STRING[^"]*"><failure/);
    const html = await readFile(join(dir, 'audit.html'), 'utf8');
    expect(html).toContain('CLIENT-CHAIN-STRING');
    // The secret never reaches a report.
    for (const f of ['audit.json', 'junit.xml', 'audit.html']) expect(await readFile(join(dir, f), 'utf8')).not.toContain(profile.credentials.client_secret);
  }, 60_000);
});

// The package as users get it: `npm pack` (prepack builds dist/), then `npm install ./baas-conform-*.tgz`
// in an empty folder, then the CLI (the client bank of `selftest --area clients` and `rules --audit`
// among it), the library example of docs/extend-the-toolkit.md and the `baas-conform/types`
// entry, all with no tsx and no dev dependencies installed. Slow by nature (a build, an install from
// the registry, a full run): every step has its own time limit.

import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/model/index.ts';
import { PACKAGE_ROOT } from '../../src/package/index.ts';
import { loadChecks } from '../../suites/index.ts';
import { readmeBlock } from './readme.ts';

const exec = promisify(execFile);
const MINUTE = 60_000;
const pkg = JSON.parse(await readFile(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };

// npm lifecycle variables of an enclosing `npm test` must not leak into the nested npm commands.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_(lifecycle|package)_/.test(k) && k !== 'NODE_OPTIONS'));

let work: string;
let app: string;

async function run(cmd: string, args: string[], cwd: string, timeout: number) {
  try {
    const r = await exec(cmd, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string; killed?: boolean };
    if (e.killed) throw new Error(`${cmd} ${args.join(' ')} exceeded ${timeout} ms`);
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

// `--no` refuses a registry download (a different package of that name) and `--` keeps npm from
// taking `--version` for itself: this runs the installed bin exactly as `npx baas-conform` would.
const npx = (args: string[], timeout = 2 * MINUTE) => run('npx', ['--no', '--', 'baas-conform', ...args], app, timeout);
// The other commands run the bin npx found there, node_modules/.bin/baas-conform, without npx's own
// start-up (0.4 s of CPU each): the installed launcher and dist/ are what they exercise.
const cli = (args: string[], timeout = 2 * MINUTE) => run(path.join(app, 'node_modules', '.bin', 'baas-conform'), args, app, timeout);

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'bc-tarball-'));
  await run('npm', ['pack', '--pack-destination', work], PACKAGE_ROOT, 5 * MINUTE).then((r) => expect(r.code, r.stderr).toBe(0));
  const tarball = (await readdir(work)).find((f) => /^baas-conform-.*\.tgz$/.test(f));
  expect(tarball, 'npm pack wrote no baas-conform-*.tgz').toBeDefined();
  app = path.join(work, 'app');
  await mkdir(app);
  await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'bc-consumer', private: true, type: 'module' }));
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(work, tarball!)], app, 5 * MINUTE);
  expect(install.code, install.stderr).toBe(0);
}, 11 * MINUTE);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

// The steps below share the one install and write apart (out/, audit-out/, example.mjs, types.ts), and
// most of their time is process start-up and waiting on a child: they run at once.
describe.concurrent('the packed tarball, installed in an empty folder', () => {
  it('installs no tsx, no dev dependency and no TypeScript sources', async () => {
    const modules = path.join(app, 'node_modules');
    expect(existsSync(path.join(modules, 'baas-conform', 'bin', 'baas-conform.js'))).toBe(true);
    for (const dev of ['tsx', ...Object.keys(pkg.devDependencies)]) expect(existsSync(path.join(modules, dev)), `${dev} installed`).toBe(false);
    // Without src/ the launcher has no sources to run: what runs below is dist/.
    expect(existsSync(path.join(modules, 'baas-conform', 'src'))).toBe(false);
    expect(existsSync(path.join(modules, 'baas-conform', 'dist', 'src', 'cli', 'index.js'))).toBe(true);
  });

  it('npx baas-conform --version prints the package version', async () => {
    const r = await npx(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('baas-conform rules lists every rule of the shipped model', async () => {
    const r = await cli(['rules']);
    expect(r.code, r.stderr).toBe(0);
    const model = await loadModel();
    for (const rule of model.rules) expect(r.stdout).toContain(rule.id);
  });

  it('baas-conform audit runs from dist: profile first, the client rules judged, three reports', async () => {
    const r = await cli(['audit', '--duration', '1', '--report-dir', 'audit-out']);
    // No client called it: every testable rule is "not exercised", so the audit judged nothing:
    // inconclusive (exit 4), never a pass, and it still writes its three reports.
    expect(r.code, r.stderr).toBe(4);
    expect(r.stdout).toContain('INCONCLUSIVE');
    expect(JSON.parse(r.stdout.split('\n')[0])).toMatchObject({ side: 'client' });
    const model = await loadModel();
    for (const rule of model.clientRules) expect(r.stdout).toContain(rule.id);
    for (const f of ['audit.json', 'junit.xml', 'audit.html']) expect(existsSync(path.join(app, 'audit-out', f)), f).toBe(true);
  }, MINUTE);

  it('baas-conform selftest --area clients runs the client bank from dist: a faulty sample client, a benign one, a library client, and one whose library is a devDependency', async () => {
    // The bank is compiled with the package (src/audit/bank): no tsx, no source checkout. got is a
    // devDependency, so its client is skipped as not available, never a crash.
    const entries = ['client:chain-number', 'client:header-case', 'client:lib:fetch', 'client:lib:got'];
    const r = await cli(['selftest', '--area', 'clients', ...entries.flatMap((e) => ['--variant', e])], 4 * MINUTE);
    expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^chain-number\s+faulty\s+CLIENT-CHAIN-STRING\s+CLIENT-CHAIN-STRING \(1, 1\)$/m);
    expect(r.stdout).toMatch(/^header-case\s+benign\s+-\s+- \(0, 0\)$/m);
    expect(r.stdout).toMatch(/^lib:fetch\s+library\s+-\s+CLIENT-TOKEN-BACKOFF, .* \(1, 1\)$/m);
    expect(r.stdout).toMatch(/^lib:got\s+library\s+-\s+skipped: not available: got not installed/m);
    expect(r.stdout).toMatch(/^Client bank: 1\/1 faulty clients caught naming exactly their rule; 0 false positives \(1 benign\); 1\/1 library clients judged as expected \(1 not available\)/m);
  }, 5 * MINUTE);

  it('baas-conform rules --audit names the faulty sample clients proving each client rule, from dist', async () => {
    const r = await cli(['rules', '--audit', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { rows: { id: string; side: string; strength: string; variants: string[] }[] }).rows.filter((x) => x.side === 'client' && x.strength !== 'untestable');
    const model = await loadModel();
    expect(rows.map((x) => x.id).sort()).toEqual(model.clientRules.filter((c) => c.testable).map((c) => c.id).sort());
    for (const row of rows) expect(row.variants.length, row.id).toBeGreaterThan(0);
    expect(rows.find((x) => x.id === 'CLIENT-TOKEN-BACKOFF')!.variants).toContain('no-backoff');
  });

  it('baas-conform run passes every check against the embedded reference and writes the reports', async () => {
    const r = await cli(['run', '--report-dir', 'out'], 4 * MINUTE);
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(0);
    const results = JSON.parse(await readFile(path.join(app, 'out', 'results.json'), 'utf8'));
    expect(results.summary.total).toBe((await loadChecks()).length);
    expect(results.summary.failed).toBe(0);
    expect(existsSync(path.join(app, 'out', 'report.html'))).toBe(true);
    expect(existsSync(path.join(app, 'out', 'junit.xml'))).toBe(true);
  }, 5 * MINUTE);

  it('baas-conform serve prints its target profile first and answers on it until stopped', async () => {
    // The installed bin itself (what npx runs), so the signal reaches the server and not an npm wrapper.
    const child = spawn(path.join(app, 'node_modules', '.bin', 'baas-conform'), ['serve'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const first = await Promise.race([
        new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve)),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('serve printed nothing within 60 s')), MINUTE)),
      ]);
      const profile = JSON.parse(first) as { base_url: string };
      expect(profile.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${profile.base_url}/api/v1/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(30_000) });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 3 * MINUTE);

  it('runs the library example of docs/extend-the-toolkit.md against the installed package', async () => {
    await writeFile(path.join(app, 'example.mjs'), readmeBlock(await readFile(path.join(PACKAGE_ROOT, 'docs/extend-the-toolkit.md'), 'utf8'), 'library-example'));
    const r = await run(process.execPath, ['example.mjs'], app, 3 * MINUTE);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^pass errors\.token\./m);
    expect(r.stdout).toMatch(/^\d+ passed, 0 failed$/m);
  }, 4 * MINUTE);

  it('serves typed API bodies from baas-conform/types and typed options from baas-conform', async () => {
    await writeFile(
      path.join(app, 'types.ts'),
      [
        "import type { ErrorBody, User } from 'baas-conform/types';",
        "import type { ConformanceOptions } from 'baas-conform';",
        "const body: ErrorBody = { error_reason: 'ErrorPermissionDenied', error_description: 'no', error_category: { category: 'CategoryUnauthorized', http_status_code: 401 }, error_details: [] };",
        "const user: Pick<User, 'user_id'> = { user_id: 'u' };",
        "const options: ConformanceOptions = { checks: ['errors.*'], seed: 1 };",
        // If the entries resolved to `any`, these directives would be unused, and tsc fails on that.
        '// @ts-expect-error a number is not an error body',
        'const bad: ErrorBody = 42;',
        "// @ts-expect-error seed is a number",
        "const badOptions: ConformanceOptions = { seed: 'one' };",
        'export { body, user, options, bad, badOptions };',
        '',
      ].join('\n'),
    );
    const tsc = path.join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = await run(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', path.join(PACKAGE_ROOT, 'node_modules', '@types'), 'types.ts'], app, 2 * MINUTE);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }, 3 * MINUTE);
});

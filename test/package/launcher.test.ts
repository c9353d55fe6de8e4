// bin/baas-conform.js picks what to run: tsx sources in a checkout, compiled dist/ when installed (no
// src/), dist/ when forced or when tsx is missing, a clear exit 2 when neither can run. Each layout is
// built in a temp folder with the real launcher and stand-in entry points that say which one ran.

import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../src/package/index.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const MAIN = (who: string) => `export async function main(argv) { process.stdout.write('${who} ' + argv.join(' ') + '\\n'); return 0; }\n`;

async function layout(opts: { src?: boolean; dist?: boolean; tsx?: boolean; mainDist?: string }): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'bc-launcher-'));
  dirs.push(root);
  await mkdir(path.join(root, 'bin'));
  await copyFile(packagePath('bin', 'baas-conform.js'), path.join(root, 'bin', 'baas-conform.js'));
  await writeFile(path.join(root, 'package.json'), JSON.stringify({ name: 'launcher-fixture', type: 'module' }));
  if (opts.src) {
    await mkdir(path.join(root, 'src', 'cli'), { recursive: true });
    // A type annotation: only runs when tsx transforms it.
    await writeFile(path.join(root, 'src', 'cli', 'index.ts'), MAIN('sources').replace('(argv)', '(argv: string[])'));
  }
  if (opts.dist) {
    await mkdir(path.join(root, 'dist', 'src', 'cli'), { recursive: true });
    await writeFile(path.join(root, 'dist', 'src', 'cli', 'index.js'), opts.mainDist ?? MAIN('dist'));
  }
  if (opts.tsx) await symlink(packagePath('node_modules'), path.join(root, 'node_modules'), 'dir');
  return root;
}

async function launch(root: string, args: string[], env: Record<string, string> = {}) {
  try {
    const r = await promisify(execFile)(process.execPath, [path.join(root, 'bin', 'baas-conform.js'), ...args], { env: { ...process.env, BAAS_CONFORM_DIST: '', ...env }, timeout: 60_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('bin/baas-conform.js', () => {
  it('a source checkout with tsx runs the sources, even when a dist/ exists', async () => {
    expect((await launch(await layout({ src: true, dist: true, tsx: true }), ['run', '--x'])).stdout).toBe('sources run --x\n');
  });

  it('BAAS_CONFORM_DIST=1 runs dist/ in a checkout', async () => {
    expect((await launch(await layout({ src: true, dist: true, tsx: true }), ['--version'], { BAAS_CONFORM_DIST: '1' })).stdout).toBe('dist --version\n');
  });

  it('an installed package (no src/) runs dist/', async () => {
    expect((await launch(await layout({ dist: true }), ['rules'])).stdout).toBe('dist rules\n');
  });

  it('a checkout without tsx falls back to dist/', async () => {
    expect((await launch(await layout({ src: true, dist: true }), ['rules'])).stdout).toBe('dist rules\n');
  });

  it('exits 2 saying what to do when nothing can run', async () => {
    const none = await launch(await layout({ src: true }), ['run']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('baas-conform: no compiled code in dist/ and no tsx to run the sources: run `npm run build` (or `npm ci` in a source checkout)\n');
    const forced = await launch(await layout({ src: true, tsx: true }), ['run'], { BAAS_CONFORM_DIST: '1' });
    expect(forced.code).toBe(2);
    expect(forced.stderr).toMatch(/^baas-conform: BAAS_CONFORM_DIST=1 but dist\/ is not built/);
  });

  it('passes the exit code of main through', async () => {
    const root = await layout({ dist: true, mainDist: 'export async function main() { return 3; }\n' });
    expect((await launch(root, ['run'])).code).toBe(3);
  });

  it('ends quietly when its reader closes the pipe (`baas-conform rules | head -1`)', async () => {
    const root = await layout({
      dist: true,
      mainDist: "export async function main() { for (let i = 0; i < 2000; i++) { process.stdout.write('x'.repeat(1000) + '\\n'); await new Promise((r) => setImmediate(r)); } return 0; }\n",
    });
    const child = spawn(process.execPath, [path.join(root, 'bin', 'baas-conform.js')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

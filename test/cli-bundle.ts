// The CLI as tests start it in a child process when what they prove is what a command does (a load
// shard, an audit, a signal's exit code), not how the checkout starts it. bin/baas-conform.js runs the
// sources through tsx: ESM loader hooks on a thread of their own and ~260 modules to resolve and load,
// 1.3 s of CPU before `load` starts, against 0.5 s for one file; the coordinator test alone starts 9.
// So vitest's globalSetup bundles src/cli/index.ts once per test run with the esbuild that tsx itself
// compiles with (tsx's own dependency), into a temp folder laid out as an installed package: the real
// launcher (copied) in bin/ and the bundle as dist/src/cli/index.js, so the child runs the launcher's
// compiled-code branch, the one an installed package and the container image take.
// What stays the same as the sources: every import.meta.url in a bundled module is that module's own
// source file (the package root, spec/, the snapshot reader's digest and the selftest's worker threads
// are found from it), and packages are not bundled (node_modules/ is linked beside the bundle).
// The launcher's and the lazy imports' own tests spawn bin/baas-conform.js itself.

import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { packagePath } from '../src/package/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled CLI's launcher (bin/baas-conform.js of the temp package); absent without this globalSetup. */
    bundledCli: string;
  }
}

/** What tests spawn with process.execPath: the bundled CLI's launcher, or bin/baas-conform.js when vitest runs without this setup. */
export function cliEntry(): string {
  return inject('bundledCli') ?? packagePath('bin', 'baas-conform.js');
}

interface EsbuildPlugin {
  name: string;
  setup(b: { onLoad(o: { filter: RegExp }, cb: (a: { path: string }) => Promise<{ contents: string; loader: 'ts' }>): void }): void;
}
interface Esbuild {
  build(o: Record<string, unknown> & { plugins: EsbuildPlugin[] }): Promise<unknown>;
}

/** import.meta.url (and its dirname, filename) of a bundled module stay those of its source file. */
const sourceUrls: EsbuildPlugin = {
  name: 'source-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
      const source = await readFile(file, 'utf8');
      const contents = source
        .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(file).href))
        .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(path.dirname(file)))
        .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(file));
      return { contents, loader: 'ts' };
    });
  },
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(path.join(tmpdir(), 'bc-cli-bundle-'));
  const esbuild = (await import(pathToFileURL(createRequire(packagePath('node_modules', 'tsx', 'package.json')).resolve('esbuild')).href)) as Esbuild;
  await mkdir(path.join(root, 'bin'));
  await copyFile(packagePath('bin', 'baas-conform.js'), path.join(root, 'bin', 'baas-conform.js'));
  await writeFile(path.join(root, 'package.json'), JSON.stringify({ name: 'baas-conform-test-bundle', private: true, type: 'module' }));
  await symlink(packagePath('node_modules'), path.join(root, 'node_modules'), 'dir');
  await esbuild.build({
    entryPoints: [packagePath('src', 'cli', 'index.ts')],
    outdir: path.join(root, 'dist', 'src', 'cli'),
    bundle: true,
    splitting: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    // As tsx transforms each source: this node's syntax, and names kept (errors name themselves by new.target.name).
    target: `node${process.versions.node}`,
    keepNames: true,
    tsconfig: packagePath('tsconfig.json'),
    logLevel: 'error',
    plugins: [sourceUrls],
  });
  project.provide('bundledCli', path.join(root, 'bin', 'baas-conform.js'));
  return () => rm(root, { recursive: true, force: true });
}

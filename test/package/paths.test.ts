// Code runs from src/ (tsx) and from dist/src/ (the installed package, the container): a data file
// reached by a fixed `../../spec` from the running file exists in one layout only. Data files are
// found through src/package (packagePath), and this guard keeps it that way as modules are added.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, packagePath } from '../../src/package/index.ts';

/** Relative paths climbing to a folder the package ships at its root: wrong from dist/. */
// The folder name ends the path or a segment (`../../spec-diff/index.ts` is a source folder, not spec/).
const CLIMB_TO_DATA = /['"`](?:\.\.\/)+(?:spec|reports|examples|package\.json)(?=['"`/])/g;

export function dataPathsClimbing(source: string): string[] {
  return [...source.matchAll(CLIMB_TO_DATA)].map((m) => m[0].slice(1));
}

async function runtimeSources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await runtimeSources(full)));
    else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

describe('data files are found from sources and from dist/ alike', () => {
  it('no runtime module reaches spec/, reports/, examples/ or package.json by a relative climb', async () => {
    const offenders: string[] = [];
    for (const root of ['src', 'suites']) {
      for (const file of await runtimeSources(path.join(PACKAGE_ROOT, root))) {
        for (const hit of dataPathsClimbing(await readFile(file, 'utf8'))) offenders.push(`${path.relative(PACKAGE_ROOT, file)}: ${hit} (use packagePath from src/package)`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the guard sees the forms it forbids', () => {
    expect(dataPathsClimbing("const t = new URL('../../reports/report.html.hbs', import.meta.url);")).toEqual(['../../reports']);
    expect(dataPathsClimbing('path.resolve(here, "../../spec")')).toEqual(['../../spec']);
    expect(dataPathsClimbing("import { specDiff } from '../../spec-diff/index.ts';")).toEqual([]);
    expect(dataPathsClimbing("readFileSync(new URL('../../package.json', import.meta.url))")).toEqual(['../../package.json']);
    expect(dataPathsClimbing("import { x } from '../../src/spec-helpers.ts'; loadSchema('spec/schemas/a.json')")).toEqual([]);
  });

  it('the package root is the folder with this package.json, spec/ and reports/', async () => {
    expect(JSON.parse(await readFile(packagePath('package.json'), 'utf8')).name).toBe('baas-conform');
    expect((await readdir(packagePath('spec'))).length).toBeGreaterThan(0);
    expect((await readdir(packagePath('reports'))).length).toBeGreaterThan(0);
  });
});

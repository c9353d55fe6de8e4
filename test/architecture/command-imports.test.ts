// One front door per mode (issue 37): a command file (src/cli/commands/*.ts) is flags, one src/api call
// and an exit code. Outside src/cli it may import only src/api, src/options, src/report and src/errors.
// The imports not yet behind src/api are listed below, each with why; a new one fails this test, and so
// does a listed one that is gone (the list only shrinks).

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './scan.ts';

const DIR = path.join(ROOT, 'src/cli/commands');
const ALLOWED = ['src/api/', 'src/options/', 'src/report/', 'src/errors/', 'src/cli/'];

/** file -> imports outside the allowed folders that are still there, and why. */
const NOT_YET: Record<string, { imports: string[]; why: string }> = {
  'rules.ts': { imports: ['suites/index.ts', 'src/audit/index.ts', 'src/checks/catalogue.ts', 'src/model/index.ts', 'src/model/types.ts', 'src/mutants/index.ts', 'src/reach/measure.ts', 'src/runner/needs-table.ts'], why: 'rules (a catalogue view) has no src/api entry yet' },
};

/** Every relative import (values and types) of a command file that leaves the allowed folders, as a root-relative path. */
function outsideImports(file: string): string[] {
  const src = readFileSync(path.join(DIR, file), 'utf8');
  const specs = [...src.matchAll(/^(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]/gm)].map((m) => m[1]);
  const paths = specs.map((s) => path.relative(ROOT, path.resolve(DIR, s)).split(path.sep).join('/'));
  return [...new Set(paths.filter((p) => !ALLOWED.some((a) => p.startsWith(a))))].sort();
}

const commandFiles = readdirSync(DIR).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'));

describe('command files enter through src/api', () => {
  it.each(commandFiles)('%s imports only api, options, report and errors (or its listed exceptions)', (file) => {
    expect(outsideImports(file)).toEqual([...(NOT_YET[file]?.imports ?? [])].sort());
  });

  it('every listed exception names a command file that exists', () => {
    for (const file of Object.keys(NOT_YET)) expect(commandFiles).toContain(file);
  });

  it('flags an import outside the front door', () => {
    // The scanner itself must be able to fail: load.ts, once clean, would be caught importing src/load.
    expect(outsideImports('load.ts')).toEqual([]);
    const fake = "import { runLoad } from '../../load/index.ts';";
    const spec = /from\s*['"](\.[^'"]+)['"]/.exec(fake)![1];
    const p = path.relative(ROOT, path.resolve(DIR, spec)).split(path.sep).join('/');
    expect(ALLOWED.some((a) => p.startsWith(a))).toBe(false);
  });
});

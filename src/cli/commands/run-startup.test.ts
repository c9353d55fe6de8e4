// What `baas-conform run` loads before its first request. Every module a command's static imports
// reach is read, transpiled (a source checkout runs through tsx) and evaluated on every start: through
// the src/api barrel, `run` loaded the load generator, the audit, certify and the selftest as well,
// about 200 modules and half a second of CPU it never used. Static imports only: a dynamic import is
// paid when taken.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Root-relative paths of the .ts files the static imports of `entry` reach (type-only imports excluded). */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [path.join(ROOT, entry)];
  for (let i = 0; i < todo.length && i < 5000; i++) {
    const file = todo[i];
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    if (seen.has(rel)) continue;
    seen.add(rel);
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/^(?:import|export)(?!\s+type\b)[^'"]*?from\s*['"](\.[^'"]+\.ts)['"]/gm)) todo.push(path.resolve(path.dirname(file), m[1]));
  }
  return seen;
}

/**
 * The modes `run` never calls, each its own command (a mode's constants module, as src/options reads, is small and allowed).
 * The load generator by its engine's file: src/api/load.ts imports the engine's files, not src/load's barrel (which adds the coordinator).
 */
const OTHER_MODES = ['src/load/run.ts', 'src/audit/index.ts', 'src/certify/index.ts', 'src/mutants/index.ts', 'src/compare/index.ts', 'src/doctor/index.ts'];

describe('run start-up', () => {
  it('the run command statically loads none of the other modes', () => {
    const reached = [...staticClosure('src/cli/commands/run.ts')];
    expect(reached.filter((f) => OTHER_MODES.includes(f))).toEqual([]);
    // The walk itself works: it reaches the runner and the suites the run needs.
    expect(reached).toContain('src/runner/run.ts');
    expect(reached).toContain('suites/index.ts');
  });

  it('the walk sees a mode reached through the src/api barrel (what the test guards against)', () => {
    const reached = [...staticClosure('src/api/index.ts')];
    expect(OTHER_MODES.filter((m) => reached.includes(m))).toEqual(OTHER_MODES);
  });
});

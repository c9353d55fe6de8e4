// The order vitest starts test files in: the longest first, so the run does not end with one long file
// alone on one core while the other is idle. Vitest's own order uses the durations of earlier runs
// (node_modules/.vite/vitest/<hash>/results.json) and, without them (a fresh clone, CI), the file size:
// the selftest (4.6 min of the suite's ~12) then started after 150 other files. A file's expected
// seconds below come first, then the cached duration of a file not listed, then the size.
//
// The figures are per-file durations from a CI run of the whole suite on a fresh clone (2 cores, 3 files
// at once, 2026-11-27). Only the order depends on them, never a verdict: a stale figure costs wall time,
// not correctness.

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per file (relative to the project root) in a whole-suite CI run; files under 8 s are not listed. */
export const EXPECTED_SECONDS: Readonly<Record<string, number>> = {
  'src/mutants/selftest.test.ts': 198.6,
  'test/package/tarball.test.ts': 68.0,
  'test/recipe/recipes.test.ts': 63.0,
  'src/audit/bank/bank.test.ts': 47.4,
  'test/foreign/python-sandbox.test.ts': 28.4,
  'examples/clients/audit.example.test.ts': 27.3,
  'src/audit/loaded-host.test.ts': 50.0,
  'src/load/consistency.test.ts': 23.5,
  'test/invariance/invariance.test.ts': 22.5,
  'src/load/coordinator/coordinator.test.ts': 21.7,
  'suites/drivers/transfers-activity.test.ts': 21.1,
  'src/cli/commands/selftest.test.ts': 15.1,
  'test/hostile/control.test.ts': 10.6,
  'test/hostile/proxied.test.ts': 10.4,
  'suites/drivers/cards-effects.test.ts': 10.1,
  'suites/drivers/recipients-effects.test.ts': 10.1,
  'test/hostile/rate-limit.test.ts': 10.0,
  'test/browser/run-report.test.ts': 9.6,
  'suites/drivers/limits-rate.test.ts': 9.1,
  'test/sandbox/sandbox.test.ts': 8.9,
  'src/certify/rejudge.reference.test.ts': 8.2,
  'src/client/learned-limit.test.ts': 8.0,
  'src/load/coordinator/protocol.test.ts': 8.0,
};

/** Path of `moduleId` relative to `root`, with forward slashes. */
export function relativeKey(root: string, moduleId: string): string {
  const norm = (p: string) => p.replace(/\\/g, '/');
  const r = norm(root).replace(/\/?$/, '/');
  const m = norm(moduleId);
  return m.startsWith(r) ? m.slice(r.length) : m;
}

/**
 * Files in the order to start them: expected seconds (EXPECTED_SECONDS, else the cached duration of an
 * earlier run) descending; files known by neither keep vitest's own order after them.
 */
export function longestFirst<T>(files: readonly T[], key: (f: T) => string, cachedMs: (f: T) => number | undefined): T[] {
  const expected = (f: T): number | undefined => {
    const listed = EXPECTED_SECONDS[key(f)];
    if (listed !== undefined) return listed * 1000;
    return cachedMs(f);
  };
  const known = files.filter((f) => expected(f) !== undefined);
  const unknown = files.filter((f) => expected(f) === undefined);
  // Array.prototype.sort is stable: equal estimates keep vitest's order.
  return [...known.sort((a, b) => expected(b)! - expected(a)!), ...unknown];
}

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    return longestFirst(
      base,
      (f) => relativeKey(root, f.moduleId),
      (f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relativeKey(root, f.moduleId)}`)?.duration,
    );
  }
}

// The order vitest starts test files in: the longest first, so the run does not end with one long file
// alone on one core while the other is idle. Vitest's own order uses the durations of earlier runs
// (node_modules/.vite/vitest/<hash>/results.json) and, without them (a fresh clone, CI), the file size:
// the selftest (4.6 min of the suite's ~12) then started after 150 other files. A file's expected
// seconds below come first, then the cached duration of a file not listed, then the size.
//
// The figures are per-file durations from a CI run of the whole suite (2 cores, maxWorkers 2); those of
// files made to wait less since (invariance, loaded-host, rate-limit, run-report and the load tests
// stall, plan, conformance) are that figure scaled by their measured after/before wall. Only the order
// depends on them, never a verdict: a stale figure costs wall time, not correctness.

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per file (relative to the project root) in a whole-suite CI run; files under ~10 s are not listed. */
export const EXPECTED_SECONDS: Readonly<Record<string, number>> = {
  'src/mutants/selftest.test.ts': 276,
  'src/audit/bank/bank.test.ts': 79,
  'test/invariance/invariance.test.ts': 39,
  'test/package/tarball.test.ts': 66.8,
  'src/audit/loaded-host.test.ts': 27,
  'test/recipe/recipes.test.ts': 61,
  'src/load/coordinator/coordinator.test.ts': 37,
  'test/hostile/rate-limit.test.ts': 20,
  'src/load/consistency.test.ts': 30.6,
  'test/browser/run-report.test.ts': 16.5,
  'examples/clients/audit.example.test.ts': 27,
  'test/foreign/python-sandbox.test.ts': 22,
  'suites/drivers/transfers-activity.test.ts': 22,
  'test/sandbox/sandbox.test.ts': 21.7,
  'src/mutants/spec-audit-measured.test.ts': 17,
  'src/load/stall.test.ts': 7,
  'test/hostile/proxied.test.ts': 14.3,
  'src/load/plan.test.ts': 8.4,
  'test/hostile/control.test.ts': 13.5,
  'src/load/conformance.test.ts': 6.9,
  'src/certify/rejudge.reference.test.ts': 10.7,
  'src/runner/readings.reference.test.ts': 10.4,
  'suites/drivers/recipients-effects.test.ts': 10.1,
  'suites/drivers/cards-effects.test.ts': 10.1,
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

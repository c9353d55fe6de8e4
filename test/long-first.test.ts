// The start order of test files: the longest first (test/long-first.ts), so a long file never runs
// alone at the end of the suite.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../src/package/index.ts';
import { EXPECTED_SECONDS, longestFirst, relativeKey } from './long-first.ts';

describe('longest test files first', () => {
  it('orders listed files by their expected seconds, then files with a cached duration, then the rest in the given order', () => {
    const files = ['a.test.ts', 'test/sandbox/sandbox.test.ts', 'cached-long.test.ts', 'src/mutants/selftest.test.ts', 'b.test.ts', 'cached-short.test.ts'];
    const cached: Record<string, number> = { 'cached-long.test.ts': 500_000, 'cached-short.test.ts': 200, 'test/sandbox/sandbox.test.ts': 1 };
    expect(longestFirst(files, (f) => f, (f) => cached[f])).toEqual([
      'cached-long.test.ts', // 500 s cached, above the selftest's listed 198.6 s
      'src/mutants/selftest.test.ts',
      'test/sandbox/sandbox.test.ts', // listed 8.9 s: the listing wins over its cached 1 ms
      'cached-short.test.ts',
      'a.test.ts',
      'b.test.ts',
    ]);
  });

  it('keys files by their path under the root, on any platform', () => {
    expect(relativeKey('/r/p', '/r/p/src/x.test.ts')).toBe('src/x.test.ts');
    expect(relativeKey('/r/p/', '/r/p/src/x.test.ts')).toBe('src/x.test.ts');
    expect(relativeKey('C:\\r\\p', 'C:/r/p/src/x.test.ts')).toBe('src/x.test.ts');
  });

  it('lists only test files that exist (a renamed file would silently lose its place)', () => {
    expect(Object.keys(EXPECTED_SECONDS).filter((f) => !f.endsWith('.test.ts') || !existsSync(packagePath(...f.split('/'))))).toEqual([]);
  });
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts', 'generators/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default for `run` is one worker fewer than the cores: on a 2-core machine one file at a
    // time. The slowest files mostly wait (held answers, token windows, webhook waits, child processes),
    // so two files at once on two cores; more cores keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});

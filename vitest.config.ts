import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/long-first.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts', 'generators/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One module graph per worker process, not one per test file: importing the engine, the model and
    // the suites again for each of ~170 files was more than half the CPU of the light ones (src/report,
    // src/client, src/profile: 19.4 s of CPU isolated, 8.4 s shared). No test mocks a module or leaves
    // process state behind (tests that set process.env restore it); VITEST_ISOLATE=1 gives every file
    // its own again, to rule sharing out when a test fails only in the whole suite.
    isolate: process.env.VITEST_ISOLATE === '1',
    // Vitest's default for `run` is one worker fewer than the cores: on a 2-core machine one file at a
    // time. Most files mostly wait (held answers, token windows, webhook waits, child processes): a quiet
    // full run used 489 CPU-s in 302 s of wall at 3 files at once (1.6 of 2 cores), its files' walls
    // summing to 864 s. Four at once keep both cores busy (same clone: 302 -> 244 s); more cores keep
    // the default. `npm test -- --maxWorkers 2` overrides it.
    maxWorkers: Math.max(4, availableParallelism() - 1),
    // The longest files first (test/long-first.ts): without it a fresh clone starts files by size and
    // the selftest began after 150 others, then ran on alone.
    sequence: { sequencer: LongFirstSequencer },
    // One bundle of the CLI per run for the tests that start it as a child process (test/cli-bundle.ts).
    globalSetup: ['test/cli-bundle.ts'],
  },
});

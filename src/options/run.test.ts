// The run mode's options are qualified once: flags and the config file feed one table of bounds, every
// problem comes back in one message, and the range a kind of value takes is the same in every mode.

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { LOAD_BOUNDS } from '../load/options.ts';
import { SELFTEST_BOUNDS, qualifySelftest } from '../mutants/options.ts';
import { qualifyRunLimits, qualifyRunValues, resolveRunOptions, RUN_BOUNDS, TIMEOUT_BUDGET_BOUNDS } from './index.ts';

const problems = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message.split('; ');
  }
  throw new Error('expected a ConfigError');
};

describe('run options, qualified once', () => {
  it('names every bad value at once, not the first', () => {
    expect(problems(() => qualifyRunValues({ concurrency: 0, timeoutBudgetMs: 50, minCoverage: 2, otlp: 'ftp://x' }))).toEqual([
      expect.stringMatching(/^--otlp must be an http\(s\) URL/),
      '--concurrency must be a positive integer, got 0',
      '--timeout-budget must be an integer from 100 to 300000, got 50',
      '--min-coverage must be a share from 0 to 1 (e.g. 0.9), got 2',
    ]);
    expect(qualifyRunValues({ concurrency: '4', historyKeep: 3 })).toEqual({ concurrency: 4, historyKeep: 3 });
  });

  it('a library caller of runChecks meets the same bounds, every problem at once', () => {
    expect(problems(() => qualifyRunLimits({ concurrency: 1.5, numRuns: 0 }))).toEqual(['--concurrency must be a positive integer, got 1.5', '--runs must be a positive integer, got 0']);
    expect(problems(() => qualifyRunLimits({ timeoutBudgetMs: 400_000, minCoverage: 1.5, rateLimitWaitMs: 0 }))).toEqual([
      '--timeout-budget must be an integer from 100 to 300000, got 400000',
      '--rate-limit-wait must be a positive integer, got 0',
      '--min-coverage must be a share from 0 to 1 (e.g. 0.9), got 1.5',
    ]);
    expect(qualifyRunLimits({})).toEqual({ concurrency: 24, numRuns: 100 });
  });

  it('the config file is held to the same bounds as the flags (its schema reads them from RUN_BOUNDS)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bc-run-options-'));
    await writeFile(join(dir, 'c.json'), JSON.stringify({ timeout_budget: 400_000 }));
    await expect(resolveRunOptions({ config: 'c.json' }, dir)).rejects.toThrow(/c\.json.*timeout_budget.*must be <= 300000/);
    await writeFile(join(dir, 'ok.json'), JSON.stringify({ timeout_budget: 300_000, concurrency: 2 }));
    expect(await resolveRunOptions({ config: 'ok.json', concurrency: 3 }, dir)).toMatchObject({ concurrency: 3, timeoutBudgetMs: 300_000 });
  });

  it('selftest names every bad value at once; its defaults fill the rest', () => {
    expect(problems(() => qualifySelftest({ workers: -1, seed: 2 ** 33 }))).toEqual(['--workers must be an integer >= 0, got -1', `--seed must be an integer from 0 to ${0xffffffff}, got ${2 ** 33}`]);
    expect(qualifySelftest({ concurrency: 3 })).toEqual({ workers: 2, concurrency: 3, timeoutBudgetMs: 3000, seed: 1 });
  });

  it('one range per kind of value: run, selftest and load take the same request budget and seed', () => {
    for (const b of [RUN_BOUNDS.timeoutBudgetMs, SELFTEST_BOUNDS.timeoutBudgetMs, LOAD_BOUNDS.timeoutMs]) expect(b).toMatchObject({ min: TIMEOUT_BUDGET_BOUNDS.min, max: TIMEOUT_BUDGET_BOUNDS.max });
    expect(LOAD_BOUNDS.seed).toMatchObject({ min: RUN_BOUNDS.seed.min, max: RUN_BOUNDS.seed.max });
  });
});

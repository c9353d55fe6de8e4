// The whole selftest in CI: every check against the baseline reference and every benign variant, and
// each faulty variant against the checks that can name its rule (check-selection.ts; --all-checks runs
// the full matrix). Takes a minute or two, so it has its own long timeout.
// Failure output names each uncaught variant with the checks that failed instead, and each false
// positive with its check and message.

import { describe, expect, it } from 'vitest';
import { runSelftest } from './selftest.ts';

const THIRTY_MINUTES = 30 * 60 * 1000;

describe('selftest (mutant bank)', () => {
  it(
    'catches every faulty variant by its rule and fails no check on the baseline or a benign variant',
    async () => {
      const result = await runSelftest({ timeoutBudgetMs: 3000, seed: 1 });
      const uncaught = result.variants
        .filter((v) => v.kind === 'faulty' && !v.ok)
        .map((v) => `${v.id} [${v.breaks.join(',')}]: ${v.error ?? (v.failing.map((f) => `${f.checkId} [${f.rules.join(',')}]`).join('; ') || 'no check failed')}`);
      const falsePositives = result.falsePositives.map((f) => `${f.variant}: ${f.checkId} [${f.rules.join(',')}] ${f.message.slice(0, 200)}`);
      console.log(`selftest: score ${result.score.caught}/${result.score.faulty} (${result.score.percent}%), ${result.falsePositives.length} false positives, ${Math.round(result.durationMs / 1000)} s`);
      expect(result.baseline.error).toBeUndefined();
      expect(falsePositives).toEqual([]);
      expect(uncaught).toEqual([]);
      expect(result.score.percent).toBe(100);
      expect(result.exitCode).toBe(0);
    },
    THIRTY_MINUTES,
  );
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuleId } from '../model/types.ts';
import { checkProperty } from './property.ts';
import { CheckFailure, SkipSignal } from './signals.ts';

const ctx = { seed: 42, numRuns: 200, signal: new AbortController().signal };

describe('checkProperty', () => {
  it('keeps a found failure a failure when shrinking ends on a value that skips', async () => {
    // Large values fail an assertion; shrinking heads for small values, which skip.
    const prop = fc.property(fc.integer({ min: 0, max: 1000 }), (n) => {
      if (n < 5) throw new SkipSignal('too small to say');
      if (n > 50) throw new CheckFailure('too big', { rules: ['R-BIG' as RuleId] });
    });
    const err = await checkProperty(ctx, prop).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(CheckFailure);
    expect((err as CheckFailure).rules).toEqual(['R-BIG']);
    expect((err as CheckFailure).counterexample).toMatch(/Counterexample/);
  });

  it('still reports a skip when the first value found skips', async () => {
    const prop = fc.property(fc.integer(), () => {
      throw new SkipSignal('cannot run here');
    });
    await expect(checkProperty(ctx, prop)).rejects.toBeInstanceOf(SkipSignal);
  });

  it('reports a shrunk counterexample for a plain failure', async () => {
    const prop = fc.property(fc.integer({ min: 0, max: 1000 }), (n) => {
      if (n > 50) throw new CheckFailure(`big ${n}`, { rules: ['R-BIG' as RuleId] });
    });
    const err = (await checkProperty(ctx, prop).catch((e: unknown) => e)) as CheckFailure;
    expect(err.message).toBe('big 51');
  });
});

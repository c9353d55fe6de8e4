import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuleId } from '../model/types.ts';
import { checkProperty, PROPERTY_BATCH } from './property.ts';
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

describe('checkProperty with independent runs (concurrent batches)', () => {
  const outcome = async (prop: Parameters<typeof checkProperty>[1], params: Parameters<typeof checkProperty>[2], independent: boolean, c = ctx) => {
    const err = await checkProperty(c, prop, params, { independent }).then(() => undefined, (e: unknown) => e);
    return err instanceof CheckFailure ? { type: 'fail', message: err.message, rules: err.rules, counterexample: err.counterexample } : err instanceof SkipSignal ? { type: 'skip', reason: err.reason } : { type: String(err) };
  };

  it('draws the values fc.check draws, in its order, and runs at most PROPERTY_BATCH at once', async () => {
    const seen = (independent: boolean, propertyBatch?: number) => {
      const values: unknown[] = [];
      let inFlight = 0;
      let most = 0;
      const prop = fc.asyncProperty(fc.integer(), fc.string(), fc.array(fc.boolean()), async (...v) => {
        values.push(v);
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
      });
      return checkProperty({ ...ctx, numRuns: 35, ...(propertyBatch ? { propertyBatch } : {}) }, prop, { examples: [[1, 'a', []]] }, { independent }).then(() => ({ values, most }));
    };
    const seq = await seen(false);
    const par = await seen(true);
    expect(seq.most).toBe(1);
    expect(par.most).toBe(PROPERTY_BATCH);
    // The run's own batch (the selftest keeps it small): at most that many at once, the same values.
    const two = await seen(true, 2);
    expect(two.most).toBe(2);
    expect(two.values).toEqual(seq.values);
    expect(par.values).toHaveLength(35);
    // Concurrent runs may finish out of order: the same values, batch by batch.
    const sorted = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).sort();
    expect(sorted(par.values)).toEqual(sorted(seq.values));
  });

  it('reports the counterexample, shrink path and run count of the sequential run, for seeds with late first failures', async () => {
    const firstFound: number[] = [];
    for (const seed of [1, 7, 42, 99, 1234]) {
      const prop = fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), fc.string(), async (n, s) => {
        if (n > 940 && s.length > 2) throw new CheckFailure(`big ${n} ${JSON.stringify(s)}`, { rules: ['R-BIG' as RuleId] });
      });
      const c = { ...ctx, seed };
      const seq = await outcome(prop, {}, false, c);
      expect(seq.type).toBe('fail');
      expect(await outcome(prop, {}, true, c)).toEqual(seq);
      firstFound.push(Number(/failed after (\d+) tests/.exec(String(seq.counterexample))?.[1]));
    }
    // Some first failures lie past the first batch, so the replay path starts mid-stream.
    expect(Math.max(...firstFound)).toBeGreaterThan(PROPERTY_BATCH);
  });

  it('keeps the first failure found when shrinking ends on a skip, and a skip found first, as the sequential run does', async () => {
    const mixed = fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), async (n) => {
      if (n < 5) throw new SkipSignal('too small to say');
      if (n > 700) throw new CheckFailure(`too big ${n}`, { rules: ['R-BIG' as RuleId] });
    });
    const seq = await outcome(mixed, {}, false);
    expect(seq.type).toBe('fail');
    expect(await outcome(mixed, {}, true)).toEqual(seq);
    const skipping = fc.asyncProperty(fc.integer(), async () => {
      throw new SkipSignal('cannot run here');
    });
    expect(await outcome(skipping, {}, true)).toEqual({ type: 'skip', reason: 'cannot run here' });
  });

  it('counts examples first, as fc.check does', async () => {
    const prop = fc.asyncProperty(fc.integer({ min: 0, max: 100 }), async (n) => {
      if (n === 77) throw new CheckFailure('seventy-seven', { rules: ['R-77' as RuleId] });
    });
    const params = { numRuns: 30, examples: [[3], [5], [77]] as [number][] };
    const seq = await outcome(prop, params, false);
    expect(seq.counterexample).toMatch(/failed after 3 tests/);
    expect(await outcome(prop, params, true)).toEqual(seq);
  });

  it('stays sequential for a sync property and for parameters it does not reproduce', async () => {
    let most = 0;
    let inFlight = 0;
    const prop = fc.asyncProperty(fc.integer(), async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
    });
    await checkProperty({ ...ctx, numRuns: 20 }, prop, { timeout: 10_000 }, { independent: true });
    expect(most).toBe(1);
  });
});

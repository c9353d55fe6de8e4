// The reference bench's statistic: paired rounds summarised by their median ratio.
import { describe, expect, it } from 'vitest';
import { median, pairedRatio } from '../../bench/paired.ts';

describe('paired-round ratio', () => {
  it('cancels a slow phase of the machine that both sides of a round shared', () => {
    // The host slows by half in rounds 3-4; the candidate is 0.97 of the baseline throughout.
    const speed = [1, 1, 0.5, 0.5, 1];
    const baseline = speed.map((s) => 100_000 * s);
    const candidate = speed.map((s) => 97_000 * s);
    expect(pairedRatio(candidate, baseline).median).toBeCloseTo(0.97, 10);
  });

  it('drops a round a burst split unevenly, where a ratio of best rounds would not', () => {
    const baseline = [100, 101, 99, 140, 100];
    const candidate = [97, 98, 96, 97, 97];
    const r = pairedRatio(candidate, baseline);
    expect(r.median).toBeCloseTo(0.97, 2);
    expect(r.low).toBeCloseTo(97 / 140, 10);
    // Best of each side: 98 / 140 = 0.70, a verdict the lucky baseline round alone decided.
    expect(Math.max(...candidate) / Math.max(...baseline)).toBeLessThan(0.71);
  });

  it('rejects series that do not pair up, and the median of nothing', () => {
    expect(() => pairedRatio([1, 2], [1])).toThrow(/one to one/);
    expect(() => pairedRatio([], [])).toThrow(/one to one/);
    expect(() => median([])).toThrow(RangeError);
    expect(median([3, 1, 2, 10])).toBe(2.5);
  });
});

import { describe, expect, it } from 'vitest';
import { arrivalTimes, constantShape, shardShiftMs, valueAt } from './schedule.ts';
import { resolveProfile } from '../profile/index.ts';
import { runLoad } from './run.ts';
import { stallTarget } from './testing.ts';

describe('arrival schedule', () => {
  it('a constant rate spaces arrivals 1/R apart, independent of anything else', () => {
    const t = [...arrivalTimes(constantShape(10, 1), 1000)];
    expect(t).toHaveLength(10);
    t.forEach((x, i) => expect(x).toBeCloseTo((i + 1) * 100, 6));
  });

  it('a ramp 0 -> 10 req/s over 2 s sends the integral (10) with shrinking gaps, then holds', () => {
    const t = [...arrivalTimes({ start: 0, stages: [{ duration_s: 2, target: 10 }, { duration_s: 1, target: 10 }] }, 1000)];
    expect(t).toHaveLength(20);
    const ramp = t.slice(0, 10);
    for (let i = 2; i < ramp.length; i++) expect(ramp[i] - ramp[i - 1]).toBeLessThan(ramp[i - 1] - ramp[i - 2] + 1e-9);
    expect(ramp[9]).toBeCloseTo(2000, 6);
    expect(t[19]).toBeCloseTo(3000, 6);
  });

  it('is bounded by max and reads the shape linearly', () => {
    expect([...arrivalTimes(constantShape(1000, 10), 5)]).toHaveLength(5);
    const s = { start: 0, stages: [{ duration_s: 1, target: 10 }, { duration_s: 1, target: 0 }] };
    expect(valueAt(s, 500)).toBe(5);
    expect(valueAt(s, 1500)).toBe(5);
    expect(valueAt(s, 5000)).toBe(0);
  });

  it('n shards at rate/n, shifted, together make exactly the whole schedule', () => {
    const whole = [...arrivalTimes(constantShape(90, 2), 1e6)];
    const parts = [1, 2, 3].flatMap((i) => [...arrivalTimes(constantShape(30, 2), 1e6)].map((t) => t + shardShiftMs(90, i, 3)));
    parts.sort((a, b) => a - b);
    expect(parts).toHaveLength(whole.length);
    parts.forEach((t, k) => expect(t).toBeCloseTo(whole[k], 6));
  });

  it('poisson: seeded and reproducible, the rate on average, exponential gaps (uniform has none)', () => {
    const poisson = (seed: number) => [...arrivalTimes(constantShape(10, 1000), 1e6, { kind: 'poisson', seed })];
    const a = poisson(7);
    expect(poisson(7)).toEqual(a);
    expect(poisson(8)).not.toEqual(a);
    // 10 req/s for 1000 s: 10000 expected, standard deviation 100.
    expect(Math.abs(a.length - 10_000)).toBeLessThan(500);
    const cv = (t: number[]) => {
      const gaps = t.slice(1).map((x, i) => x - t[i]);
      const mean = gaps.reduce((n, g) => n + g, 0) / gaps.length;
      return Math.sqrt(gaps.reduce((n, g) => n + (g - mean) ** 2, 0) / gaps.length) / mean;
    };
    expect(cv(a)).toBeGreaterThan(0.9);
    expect(cv(a)).toBeLessThan(1.1);
    expect(cv([...arrivalTimes(constantShape(10, 100), 1e6)])).toBeLessThan(1e-6);
    // A ramp 0 -> 20 req/s over 100 s: about a quarter of the arrivals in the first half.
    const ramp = [...arrivalTimes({ start: 0, stages: [{ duration_s: 100, target: 20 }] }, 1e6, { kind: 'poisson', seed: 3 })];
    const firstHalf = ramp.filter((t) => t < 50_000).length / ramp.length;
    expect(firstHalf).toBeGreaterThan(0.2);
    expect(firstHalf).toBeLessThan(0.3);
  });

  it('a poisson run says so in its config, and the same seed sends the same number of requests', async () => {
    const t = await stallTarget({ delayFor: () => 0 });
    try {
      const profile = resolveProfile({ base_url: t.base_url, clients: [{ client_id: 'a', client_secret: 'secret-a' }] }, { env: {} });
      const run = () => runLoad({ scenario: 'user-read', profile, arrivalRate: 100, durationSec: 1, arrivals: 'poisson', seed: 42 });
      const [a, b] = [await run(), await run()];
      expect(a.config.arrivals).toEqual({ kind: 'poisson', seed: 42 });
      expect(a.counts.attempts).toBe(b.counts.attempts);
      expect(a.counts.attempts).toBe([...arrivalTimes(constantShape(100, 1), 1e6, { kind: 'poisson', seed: 42 })].length);
    } finally {
      await t.close();
    }
  });
});

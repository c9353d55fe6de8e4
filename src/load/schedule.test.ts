import { describe, expect, it } from 'vitest';
import { arrivalTimes, constantShape, shardShiftMs, valueAt } from './schedule.ts';

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
});

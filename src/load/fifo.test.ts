// The open model's backlog: first in first out across the ring's growth, with its entries numbered in push order.
import { describe, expect, it } from 'vitest';
import { ArrivalQueue } from './fifo.ts';

describe('ArrivalQueue', () => {
  it('keeps push order and numbering while it wraps and doubles (a backlog of thousands)', () => {
    const q = new ArrivalQueue<{ n: number }>();
    let pushed = 0;
    let shifted = 0;
    // Push 3, shift 1, so the head wraps the ring before each doubling.
    for (let round = 0; round < 2000; round++) {
      for (let k = 0; k < 3; k++) q.push({ n: ++pushed }, pushed * 0.5);
      expect(q.headSeq).toBe(shifted + 1);
      expect(q.peekAt()).toBe((shifted + 1) * 0.5);
      expect(q.shift().n).toBe(++shifted);
    }
    expect(q.length).toBe(pushed - shifted);
    expect(q.lastSeq).toBe(pushed);
    const rest = q.toArray();
    expect(rest.map((e) => e.req.n)).toEqual(Array.from({ length: pushed - shifted }, (_, i) => shifted + 1 + i));
    expect(rest.every((e) => e.at === e.req.n * 0.5)).toBe(true);
    while (q.length) expect(q.shift().n).toBe(++shifted);
    expect(shifted).toBe(pushed);
  });
});

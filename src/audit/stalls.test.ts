// The stall monitor on a real event loop, and the earliest send time it gives a recorded request.

import { describe, expect, it } from 'vitest';
import { sentNoEarlierThan, startStallMonitor, STALL_SLACK_MS } from './stalls.ts';

describe('stall monitor', () => {
  // No time bound: the block is made here, and a loaded host can only make the tick later, so the
  // stall it records can only grow; the assertion is that one recorded stall spans the whole block.
  it('records a blocked event loop as a stall spanning the block', async () => {
    const m = startStallMonitor();
    try {
      await new Promise((r) => setTimeout(r, 30));
      const from = Date.now();
      while (Date.now() - from < 150);
      const to = Date.now();
      await new Promise((r) => setTimeout(r, 30));
      const covering = m.stalls().filter((s) => s.fromMs <= from + 15 && s.toMs >= to - 5);
      expect(covering, JSON.stringify(m.stalls())).toHaveLength(1);
    } finally {
      m.stop();
    }
  });
});

describe('sentNoEarlierThan', () => {
  const stalls = [
    { fromMs: 1000, toMs: 1300 },
    { fromMs: 1310, toMs: 1600 },
    { fromMs: 3000, toMs: 3100 },
  ];
  it('gives the start of the stall a request was read in or right after, chaining stalls closer than the slack', () => {
    expect(sentNoEarlierThan(stalls, 3050)).toBe(3000);
    expect(sentNoEarlierThan(stalls, 3100 + STALL_SLACK_MS)).toBe(3000);
    expect(sentNoEarlierThan(stalls, 1605)).toBe(1000);
  });
  it('gives the recorded time when no stall ended just before it', () => {
    expect(sentNoEarlierThan(stalls, 3100 + STALL_SLACK_MS + 1)).toBe(3100 + STALL_SLACK_MS + 1);
    expect(sentNoEarlierThan(stalls, 999)).toBe(999);
    expect(sentNoEarlierThan(stalls, 2000)).toBe(2000);
    expect(sentNoEarlierThan([], 5)).toBe(5);
  });
});

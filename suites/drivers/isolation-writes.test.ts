// The company-isolation writes go out in parts at once (isolation-writes.ts), yet each probe keeps the
// identity header kind the sequential walk gave it: a part's first turn is the count of the probes of
// the parts before it, known once each of them has said how many it sends.
import { describe, expect, it } from 'vitest';
import { Parts } from './isolation-writes.ts';

describe('Parts', () => {
  it('numbers the probes of each part after those of the parts before it, whatever order they close in', async () => {
    const parts = new Parts(3);
    const turns: Record<string, number> = {};
    const probe = async (i: number, name: string) => {
      const local = parts.take(i);
      turns[name] = (await parts.base(i)) + local;
    };
    // Part 2 probes first, part 1 closes before part 0: the turns are still 0..n in the listed order.
    const late = probe(2, 'c0');
    const b0 = probe(1, 'b0');
    parts.close(1, 2);
    const a = Promise.all([probe(0, 'a0'), probe(0, 'a1')]);
    parts.close(0);
    await Promise.all([late, b0, a, probe(1, 'b1'), probe(1, 'b2')]);
    parts.close(2);
    expect(turns).toEqual({ a0: 0, a1: 1, b0: 2, b1: 3, b2: 4, c0: 5 });
  });

  it('holds a part until the parts before it close, and a second close changes nothing', async () => {
    const parts = new Parts(2);
    let resolved = false;
    const base = parts.base(1).then((b) => {
      resolved = true;
      return b;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(resolved).toBe(false);
    parts.take(0);
    parts.close(0, 3);
    parts.close(0, 9);
    expect(await base).toBe(4);
  });
});

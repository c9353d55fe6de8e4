// The event bus: every reporter sees every event in emission order, one delivery at a time, with sync
// and async reporters mixed; a reporter that answers at once gets the event at once; a throwing one
// stops neither the others nor the order, and its error surfaces at drain.

import { describe, expect, it } from 'vitest';
import type { Reporter, RunEvent } from '../events/index.ts';
import { EventBus } from './event-bus.ts';

const warning = (n: number): RunEvent => ({ type: 'warning', checkId: `c${n}`, message: `m${n}` });
const idOf = (e: RunEvent) => (e.type === 'warning' ? e.checkId : e.type);

describe('EventBus', () => {
  it('sync and async reporters see every event in emission order, one delivery at a time', async () => {
    const log: string[] = [];
    let busy = false;
    const sync = (name: string): Reporter => ({
      onEvent(e) {
        expect(busy).toBe(false);
        log.push(`${name}:${idOf(e)}`);
      },
    });
    const slow = (name: string, ms: (n: number) => number): Reporter => ({
      async onEvent(e) {
        expect(busy).toBe(false);
        busy = true;
        await new Promise((r) => setTimeout(r, ms(Number(idOf(e).slice(1)))));
        busy = false;
        log.push(`${name}:${idOf(e)}`);
      },
    });
    const bus = new EventBus([sync('a'), slow('b', (n) => (n % 3) * 5), sync('c'), slow('d', (n) => (n % 2) * 3)]);
    for (let n = 0; n < 12; n++) {
      bus.emit(warning(n));
      if (n === 5) await new Promise((r) => setTimeout(r, 30)); // idle in between: the bus goes back to delivering at once
    }
    await bus.drain();
    const want = Array.from({ length: 12 }, (_, n) => ['a', 'b', 'c', 'd'].map((r) => `${r}:c${n}`)).flat();
    expect(log).toEqual(want);
  });

  it('delivers to reporters that answer at once during emit, when nothing is waiting', () => {
    const seen: string[] = [];
    const bus = new EventBus([{ onEvent: (e) => void seen.push(idOf(e)) }, { onEvent: (e) => void seen.push(`second ${idOf(e)}`) }]);
    bus.emit(warning(1));
    expect(seen).toEqual(['c1', 'second c1']);
  });

  it('a reporter that throws (at once or later) stops neither the others nor the order; drain surfaces the first error', async () => {
    const seen: string[] = [];
    const bus = new EventBus([
      {
        onEvent(e) {
          if (idOf(e) === 'c1') throw new Error('sync failure');
        },
      },
      {
        async onEvent(e) {
          if (idOf(e) === 'c2') throw new Error('async failure');
        },
      },
      { onEvent: (e) => void seen.push(idOf(e)) },
    ]);
    for (let n = 0; n < 4; n++) bus.emit(warning(n));
    await expect(bus.drain()).rejects.toThrow('sync failure');
    expect(seen).toEqual(['c0', 'c1', 'c2', 'c3']);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import type { RunEvent } from '../events/index.ts';
import { conformanceEvents } from './index.ts';

describe('conformanceEvents', () => {
  it('yields every event of the run in order and ends after run-finished; result settles with the outcome', async () => {
    const { events, result } = conformanceEvents({ checks: ['errors.token.*'], seed: 3 });
    const seen: RunEvent[] = [];
    for await (const e of events) seen.push(e);
    const r = await result;
    expect(seen[0].type).toBe('run-started');
    expect(seen.at(-1)?.type).toBe('run-finished');
    const finished = seen.flatMap((e) => (e.type === 'check-finished' ? [e.result.checkId] : []));
    expect(finished.sort()).toEqual(r.results.map((c) => c.checkId).sort());
    expect(r.results.length).toBeGreaterThan(1);
    // Every check-started comes before its check-finished.
    for (const id of finished) {
      const started = seen.findIndex((e) => e.type === 'check-started' && e.checkId === id);
      const ended = seen.findIndex((e) => e.type === 'check-finished' && e.result.checkId === id);
      expect(started).toBeGreaterThanOrEqual(0);
      expect(started).toBeLessThan(ended);
    }
  });

  it('throws the run error from the iterator and from result', async () => {
    const { events, result } = conformanceEvents({ target: 'http://127.0.0.1:1', shard: '0/2' });
    const drained = (async () => {
      for await (const _ of events) void _;
    })();
    await expect(drained).rejects.toBeInstanceOf(ConfigError);
    await expect(result).rejects.toThrow(/shard must look like i\/n/);
  });
});

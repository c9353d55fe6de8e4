// Independent requests of one check at once (suites/kit/batches.ts): at most PROBE_BATCH in flight on a
// real loopback server, answers judged in the listed order (the first failure in that order is the one
// reported, however the answers arrive), and no batch after a failing one.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allInOrder, inBatches, PROBE_BATCH } from './batches.ts';

let server: Server;
let base: string;
let inFlight = 0;
let maxInFlight = 0;
const seen: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const n = Number((req.url ?? '/0').slice(1));
    seen.push(n);
    // Later items answer sooner, so answers arrive out of the listed order within a batch.
    setTimeout(() => {
      inFlight--;
      res.writeHead(n % 5 === 3 ? 500 : 200).end(String(n));
    }, 40 - (n % PROBE_BATCH) * 10);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const get = async (n: number) => (await fetch(`${base}/${n}`, { signal: AbortSignal.timeout(5000) })).status;

describe('inBatches', () => {
  it('keeps at most PROBE_BATCH in flight and judges every answer in the listed order', async () => {
    maxInFlight = 0;
    const judged: number[] = [];
    const items = [0, 1, 2, 4, 5, 6, 7, 9, 10];
    await inBatches(items, get, (n, status) => {
      expect(status).toBe(200);
      judged.push(n);
    });
    expect(judged).toEqual(items);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(PROBE_BATCH);
  });

  it('reports the first failure in the listed order and sends no batch after it', async () => {
    seen.length = 0;
    const items = Array.from({ length: 12 }, (_, i) => i);
    // Items 3 and 8 answer 500 (3 % 5, 8 % 5); 3 is listed first, in the first batch.
    const err = await inBatches(items, get, (n, status) => {
      if (status !== 200) throw new Error(`item ${n} answered ${status}`);
    }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('item 3 answered 500');
    expect(Math.max(...seen)).toBeLessThan(PROBE_BATCH);
  });

  it('refuses a batch size that is not a positive integer', async () => {
    await expect(inBatches([1], get, () => undefined, 0)).rejects.toThrow(RangeError);
  });
});

describe('allInOrder', () => {
  it('waits for every part and rethrows the first failure in the listed order, not the first to happen', async () => {
    const done: string[] = [];
    const slowFail = async () => {
      await new Promise((r) => setTimeout(r, 30));
      done.push('a');
      throw new Error('a failed');
    };
    const fastFail = async () => {
      done.push('b');
      throw new Error('b failed');
    };
    const ok = async () => {
      await new Promise((r) => setTimeout(r, 50));
      done.push('c');
      return 3;
    };
    await expect(allInOrder(slowFail, fastFail, ok)).rejects.toThrow('a failed');
    expect(done.sort()).toEqual(['a', 'b', 'c']);
    await expect(allInOrder(async () => 1, ok)).resolves.toEqual([1, 3]);
  });
});

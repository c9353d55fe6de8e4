// Pacing below a documented token limit, on a real loopback server that enforces one.
import { afterEach, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import { Pacer } from './pace.ts';
import { limitedTokenEndpoint, loopback } from './testing.ts';

const LIMIT = 5;
const WINDOW_MS = 1000;

/** A token endpoint refusing the (LIMIT+1)th request of each fixed 1 s window with 429 + Retry-After. */
const limitedToken = (times: number[], refused: { n: number }) => limitedTokenEndpoint({ limit: LIMIT, windowMs: WINDOW_MS, refused, times });

/** Most requests in any window of WINDOW_MS. */
const busiest = (times: number[]) => Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + WINDOW_MS).length));

describe('pacing below a documented token limit', () => {
  const documented = loopback({ rate_limit: { per_client: LIMIT, per_ip: 50, window_seconds: WINDOW_MS / 1000 } });
  const undocumented = loopback();
  afterEach(async () => {
    await documented.close();
    await undocumented.close();
  });

  it('holds token requests below the documented limit, so no 429 is met; without the numbers the same burst meets them', async () => {
    const model = await loadModel();
    // The two bursts side by side, each on its own server: both mostly wait (the pace, Retry-After 1 s).
    const burst = async (net: typeof documented, name: string) => {
      const times: number[] = [];
      const refused = { n: 0 };
      const url = await net.serve(limitedToken(times, refused));
      const c = net.session(url, { model }).client(name);
      await Promise.all(Array.from({ length: 10 }, () => c.send({ op: 'createToken', body: {} })));
      return { times, refused, c };
    };
    const paced = async () => {
      const { times, refused, c } = await burst(documented, 'paced');
      expect(refused.n).toBe(0);
      expect(times).toHaveLength(10);
      expect(busiest(times)).toBeLessThanOrEqual(Math.floor(LIMIT * 0.8));
      // The time held counts as waiting (the check's time limit follows it).
      expect(c.waitedMs).toBeGreaterThan(1500);
    };
    const unpaced = async () => {
      expect((await burst(undocumented, 'unpaced')).refused.n).toBeGreaterThan(0);
    };
    await Promise.all([paced(), unpaced()]);
  });

  it('never holds a probe of the limit (noRetry): the rate-limit checks still reach it', async () => {
    const model = await loadModel();
    const times: number[] = [];
    const refused = { n: 0 };
    const url = await documented.serve(limitedToken(times, refused));
    const c = documented.session(url, { model }).client('probe');
    const answers = await Promise.all(Array.from({ length: 8 }, () => c.send({ op: 'createToken', body: {}, noRetry: true })));
    // Held below the documented limit, no probe would ever be refused: a 429 shows they were sent at
    // once. (No wall-clock bound: this machine's load must not decide the test.)
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    expect(times).toHaveLength(8);
  });

  it('documents nothing without a window or a limit', () => {
    expect(Pacer.forProfile({})).toBeUndefined();
    expect(Pacer.forProfile({ rate_limit: { per_ip: 10 } })).toBeUndefined();
    expect(Pacer.forProfile({ rate_limit: { per_client: 10, per_ip: 20, window_seconds: 60 } })).toMatchObject({ perWindow: 8, windowMs: 60_000 });
  });
});

// Pacing below a limit a 429 showed, on a real loopback server that enforces one the profile does not document.
import { afterEach, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import { LimitLearner, statedLimit } from './learned-limit.ts';
import { Pacer } from './pace.ts';
import { limitedTokenEndpoint, loopback } from './testing.ts';

const LIMIT = 5;
const WINDOW_MS = 1000;

/** A token endpoint refusing the (LIMIT+1)th request of each fixed 1 s window with 429 (+ `headers`). */
const limitedToken = (refused: { n: number }, headers?: Record<string, string>) => limitedTokenEndpoint({ limit: LIMIT, windowMs: WINDOW_MS, refused, ...(headers ? { headers } : {}) });

const burst = (c: { send: (r: { op: 'createToken'; body: object; noRetry?: boolean }) => Promise<{ status: number }> }, n: number, noRetry = false) =>
  Promise.all(Array.from({ length: n }, () => c.send({ op: 'createToken', body: {}, ...(noRetry ? { noRetry } : {}) })));

describe('pacing below a limit a 429 showed (no rate_limit in the profile)', () => {
  const lb = loopback();
  afterEach(() => lb.close());

  it('after the first 429s, later token requests meet fewer 429s: the run paces below what the target accepted', async () => {
    const model = await loadModel();
    const refused = { n: 0 };
    const url = await lb.serve(limitedToken(refused));
    const session = lb.session(url, { model });
    const first = session.client('first');
    expect((await burst(first, 10)).every((r) => r.status === 200)).toBe(true);
    const before = refused.n;
    // Nothing was known before the burst: the target refused what went over its limit.
    expect(before).toBeGreaterThan(0);
    for (const id of ['later-1', 'later-2']) expect((await burst(session.client(id), 10)).every((r) => r.status === 200)).toBe(true);
    // Measured: 5 in the first burst, 0 in the two later ones; 30 later ones without learning.
    expect(refused.n - before).toBeLessThan(before);
  });

  it('a flood of probes (noRetry: the rate-limit checks) teaches nothing: later requests are not held', async () => {
    const model = await loadModel();
    const refused = { n: 0 };
    const url = await lb.serve(limitedToken(refused));
    const session = lb.session(url, { model });
    const probes = await burst(session.client('probe'), 8, true);
    expect(probes.some((r) => r.status === 429)).toBe(true);
    // The probes' 429s taught nothing; an ordinary request right after meets a 429 within the probe's window, and is not paced by it.
    const learner = new LimitLearner();
    learner.probed(1000);
    learner.acceptedAt(1400, 1400);
    expect(learner.learn({ 'retry-after': '1' }, undefined, 1500)).toBeUndefined();
    // A window after the last probe, the same 429 teaches: two accepted in the window, paced at one.
    learner.acceptedAt(2050, 2050);
    expect(learner.learn({ 'retry-after': '1' }, undefined, 2100)).toMatchObject({ perWindow: 1, windowMs: 1000 });
    expect(session.pace({ op: 'createToken' })).toBeUndefined();
  });

  it('reads the limit and the window the 429 states, else counts the accepted requests of the window', () => {
    expect(statedLimit({ 'ratelimit-policy': '"default";q=50;w=10' })).toEqual({ limit: 50, windowMs: 10_000 });
    expect(statedLimit({ 'ratelimit-policy': '100;w=60' })).toEqual({ limit: 100, windowMs: 60_000 });
    expect(statedLimit({ ratelimit: 'limit=20, remaining=0, reset=3' })).toEqual({ limit: 20, windowMs: 3000 });
    expect(statedLimit({ 'x-ratelimit-limit': '30', 'x-ratelimit-reset': '2', 'retry-after': '9' })).toEqual({ limit: 30, windowMs: 2000 });
    expect(statedLimit({ 'retry-after': '4' })).toEqual({ windowMs: 4000 });
    expect(statedLimit({})).toEqual({});
    const learner = new LimitLearner();
    for (const t of [100, 200, 300, 400, 500]) learner.acceptedAt(t, t);
    // Five accepted in the second before the 429: paced at 4 a second.
    expect(learner.learn({}, undefined, 1050)).toMatchObject({ perWindow: 4, windowMs: 1000 });
    // A stated limit wins over the count; a later, looser figure never loosens the pace.
    expect(learner.learn({ 'x-ratelimit-limit': '10', 'retry-after': '2' }, undefined, 5000)).toMatchObject({ perWindow: 8, windowMs: 2000 });
    expect(learner.learn({ 'x-ratelimit-limit': '100' }, new Pacer(4, 1000), 5000)).toBeUndefined();
  });

  it('a documented limit is never replaced by a learned one', async () => {
    const model = await loadModel();
    const documented = loopback({ rate_limit: { per_client: 50, per_ip: 50, window_seconds: 1 } });
    try {
      const refused = { n: 0 };
      const url = await documented.serve(limitedToken(refused, { 'x-ratelimit-limit': '2', 'retry-after': '1' }));
      const session = documented.session(url, { model });
      await burst(session.client('documented'), 10);
      expect(refused.n).toBeGreaterThan(0);
      // Still the profile's pace (40 a second), not the 2 the target stated.
      expect((session as unknown as { pacer: Pacer }).pacer.perWindow).toBe(40);
    } finally {
      await documented.close();
    }
  });
});

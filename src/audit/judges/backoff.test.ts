// The backoff judge on hand-made sequences: what passes, what fails and what the verdict says.
// backoff.sim.test.ts measures its error rates on seeded client models with scheduling stalls.

import { describe, expect, it } from 'vitest';
import { loadModel } from '../../model/index.ts';
import { seededRandom as seeded } from '../../runner/seed.ts';
import { DEFAULT_PLAN } from '../plan.ts';
import { judgeBackoff } from './testing.ts';

const model = await loadModel();
const judge = (bursts: number[][]) => judgeBackoff(model, bursts);
// The plan's judged bursts (the short first burst is not one).
const length = Math.max(...DEFAULT_PLAN.token_bursts.map((b) => b.length));
const { factor, min_growth_ms: margin } = DEFAULT_PLAN.backoff;

describe('CLIENT-TOKEN-BACKOFF judge', () => {
  it('passes exponential backoff, with and without a cap, and equal jitter; names the bound and the waits that reached it', () => {
    const plain = Array.from({ length }, (_, k) => 50 * 2 ** k);
    const pass = judge([plain]);
    expect(pass.status).toBe('pass');
    expect(pass.message).toContain(`bound ${factor} x 50 ms + ${margin} ms = ${factor * 50 + margin} ms, reached by`);
    // Capped at 1 s from the 3rd wait on: the waits stop growing at the cap and still pass.
    expect(judge([Array.from({ length }, (_, k) => Math.min(1000, 250 * 2 ** k))]).status).toBe('pass');
    expect(judge([[30, 55, 110, 230, 420, 900, 1700].slice(0, length)]).status).toBe('pass');
  });

  it('passes when stalls stretch two of the first three waits of a burst, and when only one burst of two grows', () => {
    expect(judge([[300, 350, 90, 130, 700, 300, 1200].slice(0, length)]).status).toBe('pass');
    expect(judge([[5, 60, 30, 40, 100, 20, 150], [20, 160, 300, 500, 1400, 900, 400]].map((b) => b.slice(0, length))).status).toBe('pass');
  });

  it('fails no backoff and a fixed 100 ms or 500 ms wait, with timer noise on every wait and a stall up to the tolerance on any', () => {
    const rnd = seeded(7);
    for (let i = 0; i < 300; i++) {
      const noisy = (base: number) => Array.from({ length }, () => base + rnd() * 3 + (rnd() < 0.3 ? 50 + rnd() * (margin - 55) : 0));
      for (const base of [0, 100, 500]) {
        const j = judge([noisy(base), noisy(base)]);
        expect(j.status, `${base}: ${j.message}`).toBe('fail');
      }
    }
    const none = judge([[0, 1, 0, 2, 1, 0, 1].slice(0, length)]);
    expect(none.message).toMatch(/no burst did .*longest later wait 2 ms/);
  });

  it('fails a client that retries at once, however long the stalls of the audit itself made its later waits look', () => {
    // Every later wait 1-3 ms of the client's, then a 600-1500 ms stall of the audit's event loop that
    // ends as the retry is read: recorded waits far over any bound, and none of it the client's.
    const rnd = seeded(11);
    const lengths = DEFAULT_PLAN.token_bursts.map((b) => b.length);
    for (let i = 0; i < 100; i++) {
      const own = lengths.map((n) => Array.from({ length: n }, () => 1 + rnd() * 2));
      const stalls = lengths.map((n) => Array.from({ length: n }, (_, k) => (k === 0 ? 0 : 600 + rnd() * 900)));
      const waits = own.map((b, x) => b.map((w, k) => w + stalls[x][k]));
      const j = judgeBackoff(model, waits, DEFAULT_PLAN, stalls);
      expect(j.status, j.message).toBe('fail');
      // Unseen, the same stalls would pass it: what the stall record is for.
      expect(judgeBackoff(model, waits).status).toBe('pass');
    }
    const j = judgeBackoff(model, [[1, 2, 1, 901, 2, 1, 2]], DEFAULT_PLAN, [[0, 0, 0, 900, 0, 0, 0]]);
    expect(j.message).toContain('901 ms (900 ms of it an audit stall)');
  });

  it('still passes exponential backoff when audit stalls fall inside its waits or end them', () => {
    const plain = Array.from({ length }, (_, k) => 50 * 2 ** k);
    // A stall inside a wait that ended on the client's own timer is not where the retry was read: no cut.
    expect(judgeBackoff(model, [plain], DEFAULT_PLAN, [plain.map(() => 0)]).status).toBe('pass');
    // A stall ending each later wait cuts it to where the stall began, which still reaches the bound.
    const cut = plain.map((w, k) => (k >= 3 ? Math.min(w - 1, 150) : 0));
    expect(judgeBackoff(model, [plain], DEFAULT_PLAN, [cut]).status).toBe('pass');
  });

  it('does not judge a client that gave up after three retries, and names the exchanges it judged', () => {
    const j = judge([[10, 20, 40]]);
    expect(j.status).toBe('not-exercised');
    expect(j.message).toMatch(/retried more than 3 times/);
    const k = judge([[0, 0, 0, 0, 0]]);
    expect(k.exchanges).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

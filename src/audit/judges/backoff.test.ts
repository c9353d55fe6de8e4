// The backoff judge on synthetic sequences: full jitter (a near-zero single wait is legitimate) must
// pass, no backoff and a fixed wait must fail, whatever the noise; too short a sequence is not judged.

import { describe, expect, it } from 'vitest';
import { loadModel } from '../../model/index.ts';
import { seededRandom as seeded } from '../../runner/seed.ts';
import { DEFAULT_PLAN } from '../plan.ts';
import type { Exchange } from '../types.ts';
import { tokenBackoff } from './backoff.ts';

/** Token calls: each burst is 429 x waits.length, then a success; waits in ms between them. */
function traffic(bursts: number[][]): Exchange[] {
  const out: Exchange[] = [];
  let t = 1_000_000;
  const add = (extra: Partial<Exchange>) => {
    out.push({ seq: out.length + 1, server: 'api', method: 'POST', path: '/t', query: '', operationId: 'createToken', headers: {}, bodyText: '', startMs: t, endMs: t + 2, status: 200, ...extra });
    t += 2;
  };
  bursts.forEach((waits, b) => {
    for (const w of waits) {
      add({ status: 429, injected: { kind: 'rate-limit', burst: `token-${b + 1}` } });
      t += w;
    }
    add({});
    t += 3000;
  });
  return out;
}

async function judgeOf(bursts: number[][]) {
  const model = await loadModel();
  return tokenBackoff({ model, plan: DEFAULT_PLAN, rule: model.clientRule('CLIENT-TOKEN-BACKOFF'), exchanges: traffic(bursts), deliveries: [], webhooks: false });
}

describe('CLIENT-TOKEN-BACKOFF judge', () => {
  it.each([[100, 2], [50, 4]])('passes full jitter (base %i ms, two bursts of five) in all but %i of 2000 seeded runs', async (base, allowed) => {
    const rnd = seeded(42);
    let failed = 0;
    for (let i = 0; i < 2000; i++) {
      const burst = () => [0, 1, 2, 3, 4].map((k) => rnd() * base * 2 ** k);
      if ((await judgeOf([burst(), burst()])).status !== 'pass') failed++;
    }
    expect(failed).toBeLessThan(allowed);
  });

  it('passes full jitter when a 400 ms stall stretches the first wait of one burst, and fails when no burst grows', async () => {
    expect((await judgeOf([[430, 150, 90, 700, 300], [20, 160, 300, 500, 1400]])).status).toBe('pass');
    const none = await judgeOf([[430, 150, 90, 700, 300], [20, 60, 30, 50, 80]]);
    expect(none.status).toBe('fail');
    expect(none.message).toMatch(/no burst did/);
  });

  it('passes exponential backoff without jitter and with equal jitter', async () => {
    expect((await judgeOf([[100, 200, 400, 800, 1600]])).status).toBe('pass');
    expect((await judgeOf([[60, 110, 230, 420, 900], [75, 150, 210, 500, 1000]])).status).toBe('pass');
  });

  it('fails no backoff and a fixed 100 ms wait, with up to 40 ms of scheduling noise on any wait', async () => {
    const rnd = seeded(7);
    for (let i = 0; i < 200; i++) {
      const noisy = (base: number) => [0, 1, 2, 3, 4].map(() => base + rnd() * 40);
      expect((await judgeOf([noisy(0), noisy(0)])).status).toBe('fail');
      expect((await judgeOf([noisy(100), noisy(100)])).status).toBe('fail');
    }
  });

  it('does not judge a client that gave up after two retries, and names the exchanges it judged', async () => {
    const j = await judgeOf([[10, 20]]);
    expect(j.status).toBe('not-exercised');
    const k = await judgeOf([[0, 0, 0, 0, 0]]);
    expect(k.exchanges).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

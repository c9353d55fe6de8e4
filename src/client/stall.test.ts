// The request budget counts time this thread could run (stall.ts): an answer that came while the event
// loop was blocked is an answer, not a TIMEOUT; a target that never answers still times out, within
// STALL_CAP x the budget. Real loopback servers; the stall is a synchronous busy wait on this thread.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAttempt } from './attempt.ts';
import type { RequestTarget } from './request-target.ts';
import { STALL_CAP, stallTolerantTimer } from './stall.ts';

const BUDGET_MS = 400;
let server: Server;
let origin: string;
let pool: Pool;

function block(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* the thread cannot run anything else */ }
}

const send = (path: string) => {
  const target = { method: 'GET', url: new URL(path, origin) } as RequestTarget;
  return sendAttempt(() => pool, target, {}, undefined, { budgetMs: BUDGET_MS, maxBodyBytes: 1 << 20 });
};

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/never') return; // holds the request open: no answer ever
    setTimeout(() => res.end('{"ok":true}'), 50);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pool = new Pool(origin);
});

afterAll(async () => {
  await pool.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('a request budget of time the thread could run', () => {
  it('takes an answer that came while this thread was blocked past the budget', async () => {
    const pending = send('/ok');
    // Past the budget, well inside the cap: the answer (50 ms after the thread runs again) is in time.
    block(BUDGET_MS + 100);
    const res = await pending;
    expect(res.status).toBe(200);
  });

  it('still times out a target that never answers, stalled or not, within the cap', async () => {
    const began = performance.now();
    await expect(send('/never')).rejects.toMatchObject({ code: 'TIMEOUT' });
    const quiet = performance.now() - began;
    expect(quiet).toBeGreaterThanOrEqual(BUDGET_MS - 5);
    const again = performance.now();
    const pending = send('/never');
    block(BUDGET_MS + 300);
    await expect(pending).rejects.toMatchObject({ code: 'TIMEOUT' });
    // Bounded: the stall extends the budget at most to the cap (plus this machine's own lateness).
    // Bounded, not unbounded: the slack is wide on purpose (the machine's load must not decide this).
    expect(performance.now() - again).toBeLessThan(BUDGET_MS * STALL_CAP + 10_000);
  }, 30_000);
});

describe('a stall-tolerant timer (webhook waits use it)', () => {
  it('fires after its time of running thread, not at once when a stall outlasted it', async () => {
    const began = performance.now();
    const fired = new Promise<number>((r) => stallTolerantTimer(300, () => r(performance.now())));
    block(400);
    const unblocked = performance.now();
    // A plain timer would fire as soon as the thread runs again; this one still owes what the stall did not let run (up to the cap).
    expect((await fired) - unblocked).toBeGreaterThanOrEqual(100);
    expect((await fired) - began).toBeLessThan(300 * STALL_CAP + 10_000);
  }, 30_000);
});

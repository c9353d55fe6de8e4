// The invariance verdict itself, in npm test: the full default suite under seconds of latency on
// every answer and a random tenth of all answers refused with 429 gets the quiet run's verdicts,
// check by check (the busy-core conditions run in `npm run invariance`). And the comparison can
// fail: a world where the rate limiter never lets a check through moves its verdict, and it is named.

import { describe, expect, it } from 'vitest';
import { CONDITIONS, type Condition } from './conditions.ts';
import { changedVerdicts, runUnder } from './invariance.ts';

/**
 * Generated cases per property, in both runs (`npm run invariance` keeps the run's default of 100).
 * What the condition does is per request (a held answer, a refused one), so a property meets it in
 * 20 cases as in 100 (about two refusals each); at 100 the longest property check alone sends ~230
 * requests one after another and holds the run for minutes. Every check still runs under it.
 */
const NUM_RUNS = 20;

// The two tests side by side: each run has its own references and proxies, and mostly waits.
describe.concurrent('one target, one verdict', () => {
  it('latency (0-2 s on every answer) and 429s (10% of all answers) change no verdict of the full suite', async () => {
    const rough: Condition = { ...CONDITIONS.all, busyProcesses: 0, description: 'latency and 429s at once' };
    // Two runs at once: the quiet one is over long before the held answers are. In each, the exclusive
    // checks run beside the others, each on a reference of its own (exclusiveApart), not after them.
    const opts = { numRuns: NUM_RUNS, exclusiveApart: true };
    const [quiet, run] = await Promise.all([runUnder(CONDITIONS.quiet, opts), runUnder(rough, opts)]);
    expect(quiet.verdicts.size).toBeGreaterThan(100);
    // The condition acted on the whole run: at least half the refusals and held time its shares promise.
    expect(run.tally.refused429, 'the condition refused too little').toBeGreaterThan((run.tally.answers * rough.share429) / 2);
    expect(run.tally.heldMs, 'the condition delayed too little').toBeGreaterThan((run.tally.answers * rough.latencyMaxMs) / (rough.latencyShape + 1) / 2);
    expect(changedVerdicts(quiet, run)).toEqual([]);
  }, 900_000);

  it('names the checks whose verdict moved: a rate limiter that never lets a request through blocks them', async () => {
    const checks = ['users.wallets.read', 'errors.user-token.*'];
    const walled: Condition = { ...CONDITIONS['rate-limited'], share429: 1, operations429: ['listWallets'], description: 'every wallet list answer is a 429' };
    const [quiet, run] = await Promise.all([runUnder(CONDITIONS.quiet, { checks }), runUnder(walled, { checks, rateLimitWaitMs: 2000 })]);
    const changes = changedVerdicts(quiet, run);
    expect(changes.map((c) => c.checkId)).toContain('users.wallets.read');
    for (const c of changes) {
      expect(c.expected).toBe('pass');
      expect(c.actual).toBe('blocked');
      expect(c.detail).toMatch(/^RATE_LIMITED: /);
    }
  }, 120_000);
});

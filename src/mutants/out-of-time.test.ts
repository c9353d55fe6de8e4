// A run that ran out of time and scored wrong is done once more (out-of-time.ts): a time-out the
// machine caused clears on the second run, a target or check that really runs out of time fails
// the selftest both times, and the first run's time-outs stay in the result either way.

import { describe, expect, it } from 'vitest';
import type { Check } from '../checks/types.ts';
import { ControlAdapterFault } from '../control/guard.ts';
import { TransportError } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';
import { runSelftest, type MutantVariant } from './index.ts';

const plain: MutantVariant = { id: 'test.plain', kind: 'benign', area: 'benign', topic: 'benign', set: 'default', description: 'the reference unchanged', options: {} };

/** A check that passes on the runs whose number (1: the baseline, 2: the variant, 3: a rerun) is not in `outOfTime`. */
function timingOutOn(outOfTime: number[]): Check {
  let calls = 0;
  return {
    id: 'test.times-out', title: 'times out on some runs', area: 'limits', section: '8', rules: ['LIMIT-REQUEST-TIMEOUT'], safe: true,
    async run(ctx) {
      if (outOfTime.includes(++calls)) throw new TransportError('TIMEOUT', `no complete response from ${ctx.profile.base_url} within 3000 ms`, ctx.profile.base_url);
    },
  };
}

describe('runs that ran out of time', () => {
  it('a time-out on one run only: the run is done again, the second result counts, the first is kept', async () => {
    const r = await runSelftest({ variants: [plain], checks: [timingOutOn([2])], concurrency: 1, model: await loadModel() });
    expect(r.falsePositives).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(r.rerunAfterTimeout).toEqual([{ id: 'test.plain', ok: true, first: [{ checkId: 'test.times-out', cause: 'TIMEOUT', message: expect.stringContaining('within 3000 ms') }] }]);
  });

  it('a time-out on the run and on its rerun: still a false positive, exit 1, the rerun says so', async () => {
    const r = await runSelftest({ variants: [plain], checks: [timingOutOn([2, 3])], concurrency: 1, model: await loadModel() });
    expect(r.falsePositives.map((f) => [f.variant, f.checkId, f.cause])).toEqual([['test.plain', 'test.times-out', 'TIMEOUT']]);
    expect(r.exitCode).toBe(1);
    expect(r.rerunAfterTimeout.map((x) => [x.id, x.ok])).toEqual([['test.plain', false]]);
  });

  it('a check blocked by a control step that got no answer on one run only: done again like a time-out', async () => {
    // What a starved thread gave the baseline in a CI run: states.3ds.no-replay blocked by control:create3dsChallenge, TIMEOUT.
    const blockedOn = (runs: number[], problem: 'unreachable' | 'refused'): Check => {
      let calls = 0;
      return {
        ...timingOutOn([]),
        id: 'test.blocked',
        async run(ctx) {
          if (runs.includes(++calls)) throw new ControlAdapterFault({ source: 'profile.control_url', operation: 'create3dsChallenge', problem }, `TIMEOUT: no complete response from ${ctx.profile.base_url} within 3000 ms`);
        },
      };
    };
    const r = await runSelftest({ variants: [plain], checks: [blockedOn([1], 'unreachable')], concurrency: 1, model: await loadModel() });
    expect(r.baseline.error).toBeUndefined();
    expect(r.falsePositives).toEqual([]);
    expect(r.rerunAfterTimeout).toEqual([{ id: 'baseline', ok: true, first: [{ checkId: 'test.blocked', cause: 'BLOCKED', message: expect.stringContaining('TIMEOUT') }] }]);
    // A refusal is an answer: not run again.
    const refused = await runSelftest({ variants: [plain], checks: [blockedOn([1], 'refused')], concurrency: 1, model: await loadModel() });
    expect(refused.rerunAfterTimeout).toEqual([]);
    expect(refused.falsePositives.map((f) => [f.variant, f.checkId])).toEqual([['baseline', 'test.blocked']]);
  });

  it('a failure that is not a time-out is never run again', async () => {
    let calls = 0;
    const wrong: Check = { ...timingOutOn([]), id: 'test.wrong', async run() { if (++calls === 2) throw new Error('wrong answer'); } };
    const r = await runSelftest({ variants: [plain], checks: [wrong], concurrency: 1, model: await loadModel() });
    expect(r.rerunAfterTimeout).toEqual([]);
    expect(r.falsePositives.map((f) => f.checkId)).toEqual(['test.wrong']);
  });
});

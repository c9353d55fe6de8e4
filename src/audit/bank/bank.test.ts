// The client bank on real loopback servers: the conforming sample client passes every client rule,
// each faulty mode is caught naming exactly the rule it breaks (a recommended rule: a warning, exit 1
// under strict), each benign mode stays clean.

import { describe, expect, it } from 'vitest';
import { BANK_MODES, runBank } from './index.ts';
import { FAULTY } from './modes.ts';
import { loadModel } from '../../model/index.ts';

describe('client bank', () => {
  it('catches every faulty client by its rule and leaves the others clean', async () => {
    const model = await loadModel();
    const results = await runBank(BANK_MODES, 5);
    const table = results.map((r) => `${r.mode}: caught [${r.caught.join(', ')}] exit ${r.exitCode} strict ${r.strictExitCode}`);
    expect(results.filter((r) => !r.ok).map((r) => `${r.mode} expected ${r.expected ?? 'clean'}, ${table.find((t) => t.startsWith(`${r.mode}:`))}`)).toEqual([]);
    const conforming = results.find((r) => r.mode === 'none')!;
    // The conforming client exercises every testable rule but the pair rule (it never sends both names).
    expect(conforming.verdict.rules.filter((r) => r.outcome === 'not-exercised').map((r) => r.id)).toEqual(['CLIENT-ALIAS-PAIR-MATCH']);
    for (const [mode, rule] of Object.entries(FAULTY)) {
      const r = results.find((x) => x.mode === mode)!;
      expect(r.exitCode, mode).toBe(model.clientRule(rule).level === 'required' ? 1 : 0);
      const outcome = r.verdict.rules.find((x) => x.id === rule)!;
      expect(outcome.exchanges.length + (outcome.deliveries?.length ?? 0), `${mode}: the verdict names its exchanges`).toBeGreaterThan(0);
    }
  }, 240_000);
});

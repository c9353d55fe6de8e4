// Every check: suites/generated, from spec/rules joined with the per-rule drivers in suites/drivers and
// the multi-rule drivers (model-based state-machine checks and the like) in suites/models.
// Both are written with the check-writing kit (suites/kit) and the assertions of src/checks/assert.ts.

import type { Check } from '../src/checks/types.ts';
import { generatedChecks } from './generated/index.ts';
import { RECORDED_COSTS } from './costs.ts';

export async function loadChecks(): Promise<Check[]> {
  // Each check with its recorded cost (scheduling only: the longest start first).
  const all = generatedChecks.map((c) => (RECORDED_COSTS[c.id] === undefined ? c : { ...c, cost: RECORDED_COSTS[c.id] }));
  const seen = new Set<string>();
  for (const c of all) {
    if (seen.has(c.id)) throw new Error(`duplicate check id ${c.id}`);
    seen.add(c.id);
  }
  return all;
}

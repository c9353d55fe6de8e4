// Every check: the generated per-rule checks (suites/generated, from spec/rules + suites/lib drivers)
// plus the hand-written extras (suites/extra).

import type { Check } from '../src/checks/types.ts';
import { generatedChecks } from './generated/index.ts';
import { extraChecks } from './extra/index.ts';

export async function loadChecks(): Promise<Check[]> {
  const all = [...generatedChecks, ...extraChecks];
  const seen = new Set<string>();
  for (const c of all) {
    if (seen.has(c.id)) throw new Error(`duplicate check id ${c.id}`);
    seen.add(c.id);
  }
  return all;
}

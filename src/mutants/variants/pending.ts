// Pending variants: faults no check catches yet, or freedoms a check still refuses. They are not in
// the default bank (npm test runs it and must stay green); `selftest --area pending` runs them, and
// `rules --json` lists them per rule. Each moves to its area once the check side is on main.
// Empty today: every issue-13 fault and issue-14 freedom that was here moved to its area.

import type { VariantSpec } from '../variant.ts';

export function pendingVariants(): VariantSpec[] {
  return [];
}

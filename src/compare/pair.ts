// Pairs the steps of the two runs: same check, same operation, and among a check's answers of one
// operation the ones that are alike first, then the rest in order. A check that sends one operation
// many times at once (a burst, concurrent writes) gets its answers in an order that changes from run
// to run; pairing alike answers first keeps that order out of the differences.

import type { RunSteps, Step } from './steps.ts';
import { COMPARE_LIMITS, type UnpairedStep } from './types.ts';

export interface StepPair {
  check: string;
  operation: string;
  a: Step;
  b: Step;
}

export interface Pairing {
  pairs: StepPair[];
  unpaired: UnpairedStep[];
}

function byOperation(steps: Step[]): Map<string, Step[]> {
  const out = new Map<string, Step[]>();
  for (const s of steps) out.set(s.operation, [...(out.get(s.operation) ?? []), s]);
  return out;
}

/** `alike(a, b)`: the two answers show no difference (the same test compare reports with). */
export function pairSteps(a: RunSteps, b: RunSteps, alike: (x: Step, y: Step) => boolean): Pairing {
  const pairs: StepPair[] = [];
  const unpaired: UnpairedStep[] = [];
  const checks = [...new Set([...a.keys(), ...b.keys()])];
  for (const check of checks) {
    const [ga, gb] = [byOperation(a.get(check) ?? []), byOperation(b.get(check) ?? [])];
    for (const operation of new Set([...ga.keys(), ...gb.keys()])) {
      const xs = ga.get(operation) ?? [];
      const ys = gb.get(operation) ?? [];
      const used = new Set<number>();
      const left: Step[] = [];
      if (xs.length * ys.length <= COMPARE_LIMITS.maxMatchGroup ** 2 && xs.length > 1) {
        for (const x of xs) {
          const j = ys.findIndex((y, k) => !used.has(k) && alike(x, y));
          if (j < 0) left.push(x);
          else {
            used.add(j);
            pairs.push({ check, operation, a: x, b: ys[j] });
          }
        }
      } else left.push(...xs);
      const rest = ys.filter((_, k) => !used.has(k));
      const n = Math.min(left.length, rest.length);
      for (let i = 0; i < n; i++) pairs.push({ check, operation, a: left[i], b: rest[i] });
      if (left.length > n) unpaired.push({ check, operation, side: 'a', count: left.length - n });
      if (rest.length > n) unpaired.push({ check, operation, side: 'b', count: rest.length - n });
    }
  }
  return { pairs, unpaired };
}

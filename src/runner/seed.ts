// Seeds: one run seed (printed), and per-check seeds derived from it and the check id alone, so
// running one check with `--seed S --check ID` reproduces exactly what it did in the full run.

import { randomInt } from 'node:crypto';
import { SEED_BOUNDS } from '../options/numbers.ts';
import { stableHash } from './select.ts';

export function randomSeed(): number {
  // Any seed the flag accepts (randomInt's upper end is exclusive).
  return randomInt(SEED_BOUNDS.min, SEED_BOUNDS.max + 1);
}

/** Per-check seed: independent of which other checks run, their order and concurrency. */
export function deriveSeed(runSeed: number, checkId: string): number {
  // fast-check seeds are 32-bit integers; keep it a non-negative int32 so every API accepts it.
  return stableHash(`${runSeed >>> 0}:${checkId}`) & 0x7fffffff;
}

/**
 * mulberry32: a small seeded generator (not for secrets), so a randomised choice repeats run after
 * run with the same seed: open-model Poisson arrivals, an audit's fault plan, a chaos condition.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

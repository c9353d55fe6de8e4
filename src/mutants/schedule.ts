// The order and the lanes of a selftest's runs. The wall time of the bank is its CPU over the cores
// kept busy, or its longest run: so the runs that mostly wait start first, in a lane (a worker thread)
// of their own, and the CPU-bound runs fill the other threads, longest first.

import type { Check } from '../checks/types.ts';
import type { Model } from '../model/types.ts';
import { checksFor } from './check-selection.ts';
import type { MutantVariant } from './variant.ts';

/**
 * Runs of the waiting lane at once. They are timed (a rate-limit window to reach, a latency to sit
 * out, a webhook due late) and spend tens of seconds waiting with little CPU: on a thread of their own
 * their timers are not held up behind the CPU-bound runs, and a few at once keep their bursts apart.
 */
export const WAITING_AT_ONCE = 3;

/**
 * Nice value of the threads of CPU-bound runs (Linux: per thread). They keep the cores busy, and the
 * timed work beside them (the waiting lane, the client bank on the main thread) wakes, runs at once
 * and sleeps again instead of queueing behind them; the CPU-bound runs lose no time but that.
 */
export const CPU_BOUND_NICE = 10;

/** A run that mostly waits: the rate-limit variants, those adding latency, those whose checks wait (variant.ts waiting). */
export const mostlyWaits = (v: MutantVariant): boolean => !!v.realRateLimit || (v.options.latencyMs ?? 0) > 0 || v.checkConcurrency !== undefined;

/** The waiting lane, longest first: the most added latency, then the rate-limit variants (the reference's own window), then the rest. */
export function waitingRuns(variants: readonly MutantVariant[]): MutantVariant[] {
  const latency = (v: MutantVariant) => v.options.latencyMs ?? 0;
  const rank = (v: MutantVariant) => (latency(v) > 0 ? 0 : v.realRateLimit ? 1 : 2);
  return variants.filter(mostlyWaits).sort((a, b) => rank(a) - rank(b) || latency(b) - latency(a));
}

/**
 * The CPU-bound lane: the baseline (undefined) first, then the runs of more checks; the runs of a few
 * checks (check-selection.ts) fill the gaps at the end instead of trailing alone.
 */
export function busyRuns(variants: readonly MutantVariant[], checks: readonly Pick<Check, 'id' | 'rules'>[], model: Pick<Model, 'limits'>, allChecks: boolean): (MutantVariant | undefined)[] {
  const size = new Map(variants.map((v) => [v, checksFor(v, checks, model, allChecks).length]));
  return [undefined, ...variants.filter((v) => !mostlyWaits(v)).sort((a, b) => size.get(b)! - size.get(a)!)];
}

/** `fn` over `items`, `limit` at a time, in order; none starts after `signal` aborts (its slot stays a hole). */
export async function runPool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length && !signal?.aborted) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  });
  await Promise.all(lanes);
  return out;
}

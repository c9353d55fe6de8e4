// The lanes of the selftest: every run in exactly one lane, the waiting lane longest first, the
// CPU-bound lane with the baseline first and the runs of a few checks last.

import { describe, expect, it } from 'vitest';
import { loadChecks } from '../../suites/index.ts';
import { loadModel } from '../model/index.ts';
import { checksFor } from './check-selection.ts';
import { buildMutantBank } from './registry.ts';
import { busyRuns, mostlyWaits, runPool, waitingRuns } from './schedule.ts';

const model = await loadModel();
const checks = await loadChecks();
const bank = buildMutantBank();

describe('selftest lanes', () => {
  it('puts every variant in one lane, the baseline first in the CPU-bound one', () => {
    const waiting = waitingRuns(bank);
    const busy = busyRuns(bank, checks, model, false);
    expect(busy[0]).toBeUndefined();
    expect(busy.filter((v) => v === undefined)).toHaveLength(1);
    const ids = [...waiting, ...busy.slice(1)].map((v) => v!.id);
    expect(ids.sort()).toEqual(bank.map((v) => v.id).sort());
    expect(waiting.every(mostlyWaits)).toBe(true);
    expect(busy.slice(1).some((v) => mostlyWaits(v!))).toBe(false);
  });

  it('starts the waiting lane with the most added latency, then the rate-limit variants', () => {
    const waiting = waitingRuns(bank);
    const latency = waiting.map((v) => v.options.latencyMs ?? 0);
    const most = Math.max(...latency);
    expect(most).toBeGreaterThan(0);
    expect(latency[0]).toBe(most);
    const firstPlain = waiting.findIndex((v) => !(v.options.latencyMs ?? 0));
    expect(waiting[firstPlain].realRateLimit).toBe(true);
  });

  it('runs the full runs before the narrowed ones, and keeps bank order under --all-checks', () => {
    const sizes = busyRuns(bank, checks, model, false).slice(1).map((v) => checksFor(v, checks, model).length);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(sizes[0]).toBe(checks.length);
    expect(sizes.at(-1)!).toBeLessThan(checks.length);
    const all = busyRuns(bank, checks, model, true).slice(1);
    expect(all.map((v) => v!.id)).toEqual(bank.filter((v) => !mostlyWaits(v)).map((v) => v.id));
  });

  it('runs a pool in order, at most `limit` at once, and starts nothing after an abort', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await runPool([1, 2, 3, 4, 5], 2, async (n) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([10, 20, 30, 40, 50]);
    expect(most).toBe(2);
    const stop = new AbortController();
    const started: number[] = [];
    await runPool([1, 2, 3], 1, async (n) => {
      started.push(n);
      stop.abort();
    }, stop.signal);
    expect(started).toEqual([1]);
  });
});

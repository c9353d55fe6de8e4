// The load mode's qualified options: one bound per knob for flags, plans and library callers, and every
// problem reported at once.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { LOAD_BOUNDS, LOAD_DEFAULTS, qualifyLoadFlags, qualifyLoadRun } from './options.ts';

describe('load options, qualified once', () => {
  it('names every bad knob of a run in one error', () => {
    const run = () => qualifyLoadRun({ timeoutMs: 50, drainMs: 400_000, maxRequests: 0, judgeSample: 2 }, {}, 30_000);
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/timeoutMs \(--timeout-budget\).*drainMs \(--drain\).*maxRequests \(--amount\).*judgeSample \(--judge-sample\)/);
    expect(run).toThrow(`from ${LOAD_BOUNDS.timeoutMs.min} to ${LOAD_BOUNDS.timeoutMs.max}`);
    expect(() => qualifyLoadRun({ seed: -1, thinkTimeMs: 0.5 }, {}, 30_000)).toThrow(new ConfigError(`load: seed (--seed) must be an integer from 0 to ${0xffffffff}, got -1; thinkTimeMs (--think-time) must be an integer from 0 to 60000, got 0.5`));
  });

  it('names every bad flag in one error; one bad flag reads as the shared number parser words it', () => {
    expect(() => qualifyLoadFlags({ duration: 1000, connections: 0, model: 'half-open', p99Max: -1 })).toThrow(/--model.*--duration.*--connections.*--p99-max/);
    expect(() => qualifyLoadFlags({ timeoutBudget: 50 })).toThrow(new ConfigError('--timeout-budget must be an integer from 100 to 300000, got 50'));
    expect(() => qualifyLoadFlags({ judgeSample: 2, drain: -1 })).toThrow(new ConfigError('--drain must be an integer from 0 to 300000, got -1; --judge-sample must be a share from 0 to 1 (e.g. 0.9), got 2'));
  });

  it('the flag and the library hold a knob to the same bound', () => {
    expect(() => qualifyLoadFlags({ thinkTime: LOAD_BOUNDS.thinkTimeMs.max + 1 })).toThrow(/--think-time/);
    expect(() => qualifyLoadRun({ thinkTimeMs: LOAD_BOUNDS.thinkTimeMs.max + 1 }, {}, 30_000)).toThrow(/--think-time/);
    expect(qualifyLoadRun({ thinkTimeMs: LOAD_BOUNDS.thinkTimeMs.max }, {}, 30_000).thinkTimeMs).toBe(LOAD_BOUNDS.thinkTimeMs.max);
  });

  it('applies the defaults and divides a run among shards', () => {
    const whole = qualifyLoadRun({}, { defaultArrivalRate: 50 }, 30_000);
    expect(whole).toMatchObject({ modelKind: 'open', connections: LOAD_DEFAULTS.openConnections, maxRequests: LOAD_DEFAULTS.maxRequests, timeoutMs: 30_000, drainMs: 30_000, judgeSample: 1 });
    const part = qualifyLoadRun({ shard: { index: 2, total: 3 }, maxRequests: 10 }, { defaultArrivalRate: 60 }, 30_000);
    expect(part.shape.start).toBeCloseTo(20);
    expect(part.maxRequests).toBe(3);
  });
});

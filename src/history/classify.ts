// Flake classes by seed (`history --classify`). Runs are seeded, so a check whose verdict differed
// between two runs can be told apart exactly by replaying it, a bounded number of times:
// - the failing run's seed passes on a replay: the same seed gave different outcomes, TARGET-FLAKY;
// - it fails every time, and so does the passing run's seed: the target (or the toolkit) changed,
//   DETERMINISTIC;
// - it fails every time and the passing run's seed passes every time: new inputs found it,
//   GENERATOR-FOUND.
// A replay that skips judges nothing: the check is left unclassified, saying why.

import type { LoadedRun } from './load.ts';
import type { Verdict } from './types.ts';

export type FlakeClass = 'deterministic' | 'target-flaky' | 'generator-found' | 'unclassified';

export const CLASSIFY_DEFAULTS = {
  /** Replays of each seed (`--classify-times`). */
  times: 3,
  /** Checks classified at most, in id order: each costs up to 2 × times runs of one check. */
  maxChecks: 10,
} as const;

export interface FlakeCase {
  check: string;
  failing: { runId: string; seed: number; verdict: Verdict };
  passing: { runId: string; seed: number };
  /** Replay verdicts with the failing run's seed, then with the passing run's (empty when not needed). */
  replays: { failingSeed: Verdict[]; passingSeed: Verdict[] };
  class: FlakeClass;
  why: string;
}

/** Replays one check with a run seed against the target; resolves to its verdict. */
export type ReplayCheck = (checkId: string, runSeed: number) => Promise<Verdict>;

const isBad = (v: Verdict | undefined) => v === 'fail' || v === 'blocked';

export interface FlakeCandidate {
  check: string;
  failing: { runId: string; seed: number; verdict: Verdict };
  passing: { runId: string; seed: number };
}

/** Checks that failed in one and passed in another of the last `window` + 1 runs: the latest of each. */
export function flakeCandidates(runs: LoadedRun[], window: number, max: number = CLASSIFY_DEFAULTS.maxChecks): FlakeCandidate[] {
  const recent = runs.slice(-(window + 1));
  const latestWhere = (ok: (r: LoadedRun) => boolean) => [...recent].reverse().find(ok);
  const ids = [...new Set(recent.flatMap((r) => [...r.checks.keys()]))].sort();
  const out: FlakeCandidate[] = [];
  for (const id of ids) {
    const bad = latestWhere((r) => isBad(r.checks.get(id)));
    const good = latestWhere((r) => r.checks.get(id) === 'pass');
    if (bad && good) out.push({ check: id, failing: { runId: bad.run.runId, seed: bad.run.seed, verdict: bad.checks.get(id)! }, passing: { runId: good.run.runId, seed: good.run.seed } });
  }
  return out.slice(0, max);
}

async function replays(replay: ReplayCheck, id: string, seed: number, times: number): Promise<Verdict[]> {
  const out: Verdict[] = [];
  for (let i = 0; i < times; i++) out.push(await replay(id, seed));
  return out;
}

function judge(failingSeed: Verdict[], passingSeed: Verdict[]): { class: FlakeClass; why: string } {
  const all = [...failingSeed, ...passingSeed];
  if (all.some((v) => !isBad(v) && v !== 'pass')) return { class: 'unclassified', why: `a replay judged nothing (${all.join(', ')}): give the target the services the check needs` };
  if (failingSeed.some((v) => v === 'pass')) return { class: 'target-flaky', why: `the failing run's seed gave ${failingSeed.join(', ')} on replay: the same inputs, different outcomes` };
  if (passingSeed.every(isBad)) return { class: 'deterministic', why: `both seeds fail on replay (${passingSeed.join(', ')} with the passing run's): the target or the toolkit changed` };
  if (passingSeed.every((v) => v === 'pass')) return { class: 'generator-found', why: "the failing run's seed fails every time and the passing run's passes every time: new inputs found it" };
  return { class: 'target-flaky', why: `the passing run's seed gave ${passingSeed.join(', ')} on replay: the same inputs, different outcomes` };
}

/** Replays each candidate: the failing seed `times` times, then (when it reproduced) the passing seed. */
export async function classifyFlakes(candidates: FlakeCandidate[], replay: ReplayCheck, times: number = CLASSIFY_DEFAULTS.times): Promise<FlakeCase[]> {
  const bound = Math.max(1, Math.floor(times));
  const out: FlakeCase[] = [];
  for (const c of candidates) {
    const failingSeed = await replays(replay, c.check, c.failing.seed, bound);
    const reproduced = failingSeed.every(isBad);
    const passingSeed = reproduced ? await replays(replay, c.check, c.passing.seed, bound) : [];
    out.push({ ...c, replays: { failingSeed, passingSeed }, ...judge(failingSeed, passingSeed) });
  }
  return out;
}

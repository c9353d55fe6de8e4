// The history document (history.json, spec/schemas/history.schema.json): runs of one target in run-time
// order, and per rule and per check the verdict of every run, the current streak, and what changed
// against the previous run and against the window of the last N runs before the latest.

import type { FlakeCase } from './classify.ts';

export const HISTORY_KIND = 'baas-conform/history';
export const HISTORY_VERSION = 1;

export const HISTORY_DEFAULTS = {
  /** Runs before the latest that `vsWindow` and flapping look at (`--window`). */
  window: 5,
  /** Runs `run --history DIR` keeps (`--history-keep`). */
  keep: 30,
  /** Where `history` writes when --out does not say. */
  dir: 'baas-conform-history',
  files: { json: 'history.json', html: 'history.html', runs: 'runs' },
} as const;

/** A verdict of results.json (check or rule); null where the id is absent from that run. */
export type Verdict = 'pass' | 'fail' | 'blocked' | 'skip' | 'uncovered' | 'untestable';

/**
 * What changed for an id in the latest run. Against one earlier verdict (vsPrevious) or the judged
 * verdicts of the window (vsWindow): `regressed` fails now and passed there (every judged run, for the
 * window); `fixed` passes now and failed there (every judged run); `new` fails now and was not judged
 * there (absent, skipped, uncovered); `same` otherwise.
 */
export type Change = 'new' | 'fixed' | 'regressed' | 'same';

export interface HistoryRun {
  runId: string;
  file: string;
  seed: number;
  started: string;
  toolVersion: string;
  baseUrl: string;
  /** Check counts of the run (results.json summary). */
  checks: { passed: number; failed: number; blocked: number; skipped: number };
  /** Rule counts of the run. */
  rules: { passed: number; failed: number; blocked: number; skipped: number };
  exitCode?: number;
}

export interface Timeline {
  id: string;
  /** One per run, in run order. */
  verdicts: (Verdict | null)[];
  latest: Verdict | null;
  /** The latest verdict and how many runs in a row, ending with the latest, had it. */
  streak: { verdict: Verdict | null; runs: number };
  vsPrevious: Change;
  vsWindow: Change;
  /** Changes between pass and fail/blocked among the judged runs of the window and the latest. */
  flips: number;
  /** Two flips or more in the window: it went both ways. */
  flapping: boolean;
}

export interface ChangeCounts {
  new: number;
  fixed: number;
  regressed: number;
}

export interface HistoryDoc {
  kind: typeof HISTORY_KIND;
  version: typeof HISTORY_VERSION;
  tool: { name: string; version: string };
  /** The target every run went to; `reference` when it is the toolkit's reference implementation. */
  target: { name: string; reference: boolean };
  window: number;
  runs: HistoryRun[];
  rules: Timeline[];
  checks: Timeline[];
  counts: {
    rules: { vsPrevious: ChangeCounts; vsWindow: ChangeCounts; flapping: number };
    checks: { vsPrevious: ChangeCounts; vsWindow: ChangeCounts; flapping: number };
  };
  /** Rules that flap against the reference: the reference does not change, so the toolkit is at fault. */
  toolkitBugs: string[];
  exit: { code: 0 | 1 | 4; reasons: string[] };
  /** With --classify: each check whose verdict differed, replayed by seed and classified. */
  flakes?: FlakeCase[];
}

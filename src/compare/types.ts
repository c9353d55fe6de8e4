// The result of `baas-conform compare`: two targets run with the same seed, side by side. Three
// groups, each difference in exactly one: rule verdicts that differ (with the checks behind them and
// the steps of those checks that answered differently); for checks both targets judged alike,
// differences on what the spec specifies; and differences where the spec is silent (fields it does
// not list, types and values it does not show, success codes it never gives).

import type { RunSummary, Verdict } from '../events/index.ts';

/** Which target: the first --profile (a) or the second (b). */
export type Side = 'a' | 'b';

/** What a step difference is about. `only-a`/`only-b`: a field present in one answer only. */
export type DifferenceKind = 'status' | 'only-a' | 'only-b' | 'type' | 'value' | 'emptiness' | 'body';

/** One difference between the answers of the two targets to the same step, aggregated over the steps that show it. */
export interface StepDifference {
  /** operationId from the model, or `METHOD /path` (ids normalised) for a call the model does not know. */
  operation: string;
  kind: DifferenceKind;
  /** JSON path in the answer body (`$.data[].status`); `status` for a status-code difference. */
  field: string;
  /** What target a sent (type name, normalised value as JSON, status code, `items`/`empty`); absent for presence. */
  a?: string;
  b?: string;
  /** Why the difference sits in its group: what the model says (or does not say) about the field. */
  why: string;
  /** Steps (answers) that show this difference, and the first checks they belong to (at most COMPARE_LIMITS.checksPerDifference). */
  occurrences: number;
  checks: string[];
}

export interface RuleVerdictDifference {
  id: string;
  section: string;
  summary: string;
  a: string;
  b: string;
  /** Checks covering the rule that either run ran. */
  checks: string[];
}

export interface CheckVerdictDifference {
  check: string;
  a: Verdict;
  b: Verdict;
  /** Failure, block or skip reason on each side, masked as in the reports. */
  detailA?: string;
  detailB?: string;
  /** How the answers of this check's steps differed (both groups together: the verdict explains them). */
  steps: StepDifference[];
}

/** A step one target was asked and the other was not (the checks took another path, or a shared token was minted elsewhere). */
export interface UnpairedStep {
  check: string;
  operation: string;
  side: Side;
  count: number;
}

export interface CompareTarget {
  name?: string;
  /** Base URL without credentials. */
  baseUrl: string;
  embedded: boolean;
  summary: RunSummary;
  /** The run's own exit code (0: every check passed). */
  exitCode: number;
}

export interface CompareResult {
  kind: 'baas-conform-compare';
  version: 1;
  tool: { name: string; version: string };
  seed: number;
  started: string;
  finished: string;
  targets: { a: CompareTarget; b: CompareTarget };
  verdicts: { rules: RuleVerdictDifference[]; checks: CheckVerdictDifference[] };
  /** Differences on what the spec specifies, in checks both targets judged alike. */
  specified: StepDifference[];
  /** Differences where the spec is silent ("not shown"), in checks both targets judged alike: for the spec's authors to settle. */
  silent: StepDifference[];
  unpaired: UnpairedStep[];
  counts: {
    rulesDiffering: number;
    checksDiffering: number;
    specified: number;
    silent: number;
    /** Steps paired and compared, and steps left out (no answer, a truncated body, or a rate limit's 429 on one side only). */
    pairedSteps: number;
    notCompared: number;
    unpairedSteps: number;
  };
  /** 0 when no rule verdict differs, 1 when one does, 4 when a side's run judged nothing (every check skipped): no difference then says nothing. */
  exitCode: 0 | 1 | 4;
  /** Why the comparison is inconclusive, when it is (src/errors/exit.ts words). */
  inconclusive?: string;
}

export const COMPARE_KIND = 'baas-conform-compare';

export const COMPARE_LIMITS = {
  /** Exchanges kept per run: a long run must not hold an unbounded list (bodies are bounded per exchange by the client). */
  maxExchanges: 50_000,
  /** Checks named per aggregated difference. */
  checksPerDifference: 20,
  /** Above this many answers of one operation in one check, steps pair by order alone (no best-match search). */
  maxMatchGroup: 400,
} as const;

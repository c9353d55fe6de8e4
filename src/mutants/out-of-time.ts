// Runs that ran out of time. A request past the selftest's budget, a check past its time limit, or a
// control step that got no answer (a check blocked by it), on
// a run that did not score as it should (a false positive, or a faulty variant not caught) may say more
// about the machine than about the variant: the runs share two cores with each other and, inside
// `npm test`, with another test file. Such a run is done once more after all the others, when fewer
// runs compete, and its second result is the one scored. A variant that really stalls, or a check that
// really hangs, runs out of time again and still fails the selftest; the first result is kept in the
// selftest result (rerunAfterTimeout) so nothing is hidden.

import type { FailingCheck, Score, ScoredRun } from './scoring.ts';

/** Failure causes that only say time ran out: the client's request budget, the runner's check limit. */
const TIME_CAUSES: ReadonlySet<string> = new Set(['TIMEOUT', 'CHECK_TIMEOUT']);

/** Time ran out: a request or a check; or a check was blocked by a control step that got no answer (FailingCheck.noAnswer). */
export const outOfTime = (f: Pick<FailingCheck, 'cause' | 'noAnswer'>): boolean => (f.cause !== undefined && TIME_CAUSES.has(f.cause)) || f.noAnswer === true;

/** A run done twice: its first failures that ran out of time, and whether the second run scored as it should. */
export interface Rerun {
  id: string;
  first: { checkId: string; cause: string; message: string }[];
  /** The second run scored as it should (no false positive; the faulty variant caught). */
  ok?: boolean;
}

/** Runs (the baseline id or a variant id) that did not score as they should and ran out of time somewhere. */
export function runsToRedo(score: Pick<Score, 'baseline' | 'variants'>): Rerun[] {
  return [score.baseline, ...score.variants]
    .filter((o: ScoredRun) => !o.ok && o.failing.some(outOfTime))
    .map((o) => ({ id: o.id, first: o.failing.filter(outOfTime).map((f) => ({ checkId: f.checkId, cause: f.cause!, message: f.message })) }));
}

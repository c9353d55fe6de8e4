// Running fast-check properties inside a check. The check's seed and numRuns are passed through so
// `--seed S --check ID` replays the same inputs; a failure becomes a CheckFailure carrying the
// shrunk counterexample, and a skip or transport error raised inside the property keeps its meaning.

import fc from 'fast-check';
import { isPrerequisiteFailed } from './prerequisite.ts';
import { CheckFailure, isCheckFailure, isSkipSignal } from './signals.ts';
import type { CheckContext } from './types.ts';

/** Lines of fast-check's report worth keeping (it appends the full stack of the error otherwise). */
function trimReport(report: string): string {
  const lines = report.split('\n');
  const cut = lines.findIndex((l) => /^\s+at /.test(l));
  return (cut === -1 ? lines : lines.slice(0, cut)).join('\n').trim();
}

/** Runs a sync or async property with the check's seed; throws CheckFailure on a counterexample. */
export async function checkProperty<Ts>(
  ctx: Pick<CheckContext, 'seed' | 'numRuns' | 'signal'>,
  property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>,
  params: Omit<fc.Parameters<Ts>, 'seed'> = {},
): Promise<void> {
  let details = await fc.check(property as fc.IRawProperty<Ts>, {
    numRuns: ctx.numRuns,
    ...params,
    seed: ctx.seed,
  });
  if (!details.failed) return;
  let cause = details.errorInstance;
  // fast-check shrinks towards any value whose run throws, so shrinking can end on a skip or a
  // transport error although the value first found failed an assertion. A failure found stays a
  // failure: replay the same seed without shrinking and report that first failure.
  if (details.numShrinks > 0 && !isCheckFailure(cause)) {
    const first = await fc.check(property as fc.IRawProperty<Ts>, { numRuns: ctx.numRuns, ...params, seed: ctx.seed, endOnFailure: true });
    if (first.failed && isCheckFailure(first.errorInstance)) {
      details = first;
      cause = first.errorInstance;
    }
  }
  // A skip, a failed setup step (a control adapter error included) or an infrastructure failure inside
  // the property is not a counterexample: the runner reports it as such (skipped, blocked), naming no rule.
  if (isSkipSignal(cause) || isPrerequisiteFailed(cause)) throw cause;
  if (cause instanceof Error && (cause as { exitCode?: number }).exitCode === 3 && !isCheckFailure(cause)) throw cause;
  const report = trimReport(fc.defaultReportMessage(details) ?? `Counterexample: ${fc.stringify(details.counterexample)}`);
  const message = cause instanceof Error ? cause.message : `property failed: ${String(cause ?? 'returned false')}`;
  throw new CheckFailure(message, {
    rules: isCheckFailure(cause) ? cause.rules : undefined,
    response: isCheckFailure(cause) ? cause.response : undefined,
    comparison: isCheckFailure(cause) ? cause.comparison : undefined,
    counterexample: report,
  });
}

/** Extracts the counterexample report from an error thrown by `fc.assert` (when a check uses it directly). */
export function counterexampleFromAssertError(err: unknown): string | undefined {
  if (!(err instanceof Error) || !/Property failed after \d+ tests/.test(err.message)) return undefined;
  return trimReport(err.message);
}

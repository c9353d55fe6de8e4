// Running fast-check properties inside a check. The check's seed and numRuns are passed through so
// `--seed S --check ID` replays the same inputs; a failure becomes a CheckFailure carrying the
// shrunk counterexample, and a skip or transport error raised inside the property keeps its meaning.
//
// fc.check runs an async property's runs one after another: across a WAN every run costs its round
// trips in sequence. A property whose runs are independent (the caller declares it) has its values
// drawn exactly as fc.check would draw them (same seed, same stream) and run in bounded concurrent
// batches; the first failing index is handed back to fc.check as its replay path, so the failure is
// found again and shrunk sequentially from there, and the report (path, counterexample, "failed after
// k+1 tests") is the one the sequential run gives.

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

/** How the runs of one property relate, declared by the check that owns it. */
export interface PropertyRuns {
  /**
   * True when no run can change what another run sees: each works on what it creates itself (its own
   * user), or sends only requests a conforming target refuses without effect. Such runs go out in
   * concurrent batches. Leave it out when runs share state: a server clock, a rate limiter, a warning
   * given once, a counter.
   */
  independent?: boolean;
}

/** Runs in flight at once for an independent property (bounded: a batch is this many requests or chains). */
export const PROPERTY_BATCH = 10;

/** Parameters the batched path reproduces; any other (timeouts, skips, verbose, plugins) keeps fc.check alone. */
const BATCHABLE = new Set(['numRuns', 'examples']);

type Details<Ts> = fc.RunDetails<Ts>;

/**
 * The runs of an independent async property, in concurrent batches of `size`, values in fc.check's
 * order. On the first failing index k, fc.check replays from path k (and shrinks there); undefined
 * when every run passed.
 */
async function batched<Ts>(property: fc.IAsyncProperty<Ts>, params: fc.Parameters<Ts>, size: number): Promise<{ details: Details<Ts>; index?: number } | undefined> {
  // fc.sample wraps anything without an own isAsync in a Property, whose bias would differ from
  // fc.check's: this object is taken as the property itself, so the stream is fc.check's (property.test.ts pins it).
  const generator = { isAsync: () => true, generate: property.generate.bind(property), shrink: property.shrink.bind(property), run: property.run.bind(property) };
  const values = fc.sample(generator as unknown as fc.IRawProperty<Ts>, params);
  for (let start = 0; start < values.length; start += size) {
    const outs = await Promise.all(values.slice(start, start + size).map((v) => property.run(v)));
    const i = outs.findIndex((o) => o !== null);
    if (i === -1) continue;
    // A precondition (fc.pre) skips a run and draws another: the count is fc.check's to keep.
    if (fc.PreconditionFailure.isFailure(outs[i])) return { details: await fc.check(property, params) };
    const k = start + i;
    const replay = await fc.check(property, { ...params, path: String(k) });
    // Found again: the report says what the sequential run would (k passing runs before it, then this one).
    if (replay.failed) return { details: { ...replay, numRuns: k + 1 }, index: k };
    // Not found again (a flaky target): the sequential run decides.
    return { details: await fc.check(property, params) };
  }
  return undefined;
}

/** Runs a sync or async property with the check's seed; throws CheckFailure on a counterexample. */
export async function checkProperty<Ts>(
  ctx: Pick<CheckContext, 'seed' | 'numRuns' | 'signal' | 'propertyBatch'>,
  property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>,
  params: Omit<fc.Parameters<Ts>, 'seed'> = {},
  runs: PropertyRuns = {},
): Promise<void> {
  const all: fc.Parameters<Ts> = { numRuns: ctx.numRuns, ...params, seed: ctx.seed };
  const concurrent = runs.independent === true && property.isAsync() && Object.keys(params).every((k) => BATCHABLE.has(k));
  const outcome = concurrent ? await batched(property as fc.IAsyncProperty<Ts>, all, ctx.propertyBatch ?? PROPERTY_BATCH) : { details: await fc.check(property as fc.IRawProperty<Ts>, all) };
  if (!outcome?.details.failed) return;
  let { details } = outcome;
  let cause = details.errorInstance;
  // fast-check shrinks towards any value whose run throws, so shrinking can end on a skip or a
  // transport error although the value first found failed an assertion. A failure found stays a
  // failure: replay the same seed without shrinking and report that first failure.
  if (details.numShrinks > 0 && !isCheckFailure(cause)) {
    // Batched: the first failing index is known, so only that run is sent again.
    const k = outcome.index;
    const first = k === undefined
      ? await fc.check(property as fc.IRawProperty<Ts>, { ...all, endOnFailure: true })
      : await fc.check(property as fc.IRawProperty<Ts>, { ...all, endOnFailure: true, path: String(k) });
    if (first.failed && isCheckFailure(first.errorInstance)) {
      details = k === undefined ? first : { ...first, numRuns: k + 1 };
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

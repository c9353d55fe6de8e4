// The events of a conformance run as an async iterator, for reporters written as a `for await` loop
// rather than a callback. Events queue without bound (a run emits a few thousand at most), so a slow
// consumer never stalls the checks; breaking out of the loop stops the iteration, not the run:
// pass `signal` to cancel the run itself.

import type { RunEvent } from '../events/index.ts';
import { runConformance, type ConformanceOptions, type ConformanceResult } from './conformance.ts';

export interface ConformanceEvents {
  events: AsyncIterableIterator<RunEvent>;
  /** Settles when the run ends (also when nobody iterates). */
  result: Promise<ConformanceResult>;
}

/** Starts a run like runConformance and yields its events in order; ends after run-finished. */
export function conformanceEvents(options: ConformanceOptions = {}): ConformanceEvents {
  const queue: RunEvent[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let failure: { error: unknown } | undefined;
  const result = runConformance({
    ...options,
    onEvent: async (event) => {
      queue.push(event);
      wake?.();
      await options.onEvent?.(event);
    },
  });
  result.then(
    () => undefined,
    (error: unknown) => void (failure = { error }),
  ).finally(() => {
    done = true;
    wake?.();
  });
  async function* iterate(): AsyncGenerator<RunEvent> {
    for (;;) {
      if (queue.length) yield queue.shift()!;
      else if (failure) throw failure.error;
      else if (done) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  return { events: iterate(), result };
}

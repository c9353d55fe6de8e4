// The clock both load drivers share (the request engine and the journey scenario): the send phase
// lasts the shape's duration unless stopWhen (abort_on_fail) ends it early, and the progress line is
// fed once a period with the rate since the previous tick. Kept in one place so both drivers stop and
// report the same way.

import type { Histogram } from 'hdr-histogram-js';
import type { EngineOptions } from './engine-types.ts';
import type { Timeline } from './timeline.ts';

export interface Stopped {
  at_s: number;
  reason: string;
}

/** Resolves when the send phase ends: after `sendMs`, or earlier when `stopWhen` gives a reason (then returned). */
export async function sendPhase(sendMs: number, t0: number, timeline: Timeline, stopWhen: EngineOptions['stopWhen']): Promise<Stopped | undefined> {
  let stopped: Stopped | undefined;
  let watch: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    const end = setTimeout(resolve, sendMs);
    if (stopWhen)
      watch = setInterval(() => {
        const elapsed = performance.now() - t0;
        const reason = stopWhen(timeline, elapsed);
        if (!reason) return;
        stopped = { at_s: Math.round(elapsed) / 1000, reason };
        clearTimeout(end);
        resolve();
      }, 250);
  });
  clearInterval(watch);
  return stopped;
}

/** What a driver counts, read at each progress tick. */
export interface ProgressFigures {
  completed: number;
  errors: number;
  inFlight: number;
  queued: number;
}

/** Calls onProgress every `everyMs` (none without onProgress); clear the returned timer when the run ends. */
export function progressTicker(onProgress: EngineOptions['onProgress'], everyMs: number, t0: number, overall: () => Histogram, figures: () => ProgressFigures): NodeJS.Timeout | undefined {
  if (!onProgress) return undefined;
  let lastCompleted = 0;
  let lastAt = t0;
  return setInterval(() => {
    const now = performance.now();
    const f = figures();
    const h = overall();
    onProgress({ elapsed_s: (now - t0) / 1000, rps: ((f.completed - lastCompleted) * 1000) / Math.max(1, now - lastAt), p99_ms: h.totalCount ? h.getValueAtPercentile(99) / 1000 : 0, errors: f.errors, in_flight: f.inFlight, queued: f.queued, completed: f.completed });
    lastCompleted = f.completed;
    lastAt = now;
  }, everyMs);
}

// abort_on_fail (k6's abortOnFail with delayAbortEval): thresholds evaluated on the live timeline
// while the run sends. After its grace period, a rule that fails stops sending at once; what is in
// flight still drains and is reported, and the verdict names the rule, its value and when it failed.

import type { Timeline } from './timeline.ts';
import type { ConformanceResult, ThresholdRule } from './types.ts';
import { conformanceErrors } from './verdict.ts';
import { worstOf, type WindowBucket } from './windows.ts';

const holds = (a: number, op: ThresholdRule['op'], b: number) => (op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b);

/**
 * The engine's stopWhen for the abort_on_fail rules, or undefined when there are none. Windowed rules
 * look at the whole seconds elapsed so far; unwindowed ones at everything so far (one window). A
 * `>`/`>=` rule (rps > N) is judged only on complete windows, so a ramp's first second cannot abort it.
 */
export function abortWatch(rules: ThresholdRule[], conformance: () => ConformanceResult | undefined): ((t: Timeline, elapsedMs: number) => string | undefined) | undefined {
  const watched = rules.filter((r) => r.abort_on_fail);
  if (!watched.length) return undefined;
  return (timeline, elapsedMs) => {
    const seconds = Math.floor(elapsedMs / 1000);
    for (const rule of watched) {
      if (elapsedMs / 1000 < (rule.grace_s ?? 0)) continue;
      let actual: number | null;
      if (rule.metric === 'conformance_errors') actual = conformanceErrors({ conformance: conformance() }, rule);
      else {
        if (seconds < 1 || rule.operation) continue;
        if ((rule.op === '>' || rule.op === '>=') && rule.window_s !== undefined && seconds < rule.window_s) continue;
        const buckets: WindowBucket[] = timeline.buckets.slice(0, seconds).map((b) => ({ hist: b.hist, completed: b.completed, errors: b.errors, timeouts: b.timeouts }));
        actual = worstOf({ metric: rule.metric, op: rule.op, window_s: rule.window_s ?? seconds }, buckets, seconds).actual;
      }
      if (actual !== null && !holds(actual, rule.op, rule.value)) {
        return `abort_on_fail threshold ${rule.expr} failed at ${(elapsedMs / 1000).toFixed(1)} s (actual ${Number.isInteger(actual) ? actual : actual.toFixed(3)}; grace ${rule.grace_s ?? 0} s)`;
      }
    }
    return undefined;
  };
}

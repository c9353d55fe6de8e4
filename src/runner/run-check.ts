// One check from start to verdict: skipped before it starts when its needs are unmet (or the run is
// stopping), otherwise run under a time limit that grows with slow answers, every answer it received
// audited, and whatever it threw mapped to skip, blocked or fail. Emits check-started and
// check-finished; --fail-fast's stop is remembered across the checks of one runner.

import { auditResponses, withAudit } from '../checks/audit.ts';
import type { Check, CheckContext, RunServices } from '../checks/types.ts';
import { runWithContext } from '../checks/current.ts';
import { isSkipSignal, SkipSignal } from '../checks/signals.ts';
import type { HttpSession } from '../client/index.ts';
import type { CheckResult, Unjudged } from '../events/index.ts';
import type { Model } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { blockedOrOwn, unreadableAnswer } from './causes.ts';
import type { EventBus } from './event-bus.ts';
import { CheckTimeout, failureFromError } from './failure.ts';
import { skipReasonFor, type ServiceProblems } from './needs.ts';
import { safeCheck } from './safe-run.ts';
import { deriveSeed } from './seed.ts';
import { allowedCheckMs } from './time-limit.ts';

export interface CheckRunEnv {
  model: Model;
  profile: ResolvedProfile;
  session: HttpSession;
  bus: EventBus;
  services: RunServices;
  problems: ServiceProblems;
  /** The run seed; each check's own is derived from it and its id. */
  seed: number;
  numRuns: number;
  propertyBatch?: number;
  checkTimeoutMs: number;
  safe: boolean;
  failFast: boolean;
  signal?: AbortSignal;
  onLog?: (checkId: string, message: string) => void;
}

/** A function that runs one check and returns its result (also emitted as check-finished). */
export function checkRunner(env: CheckRunEnv): (check: Check) => Promise<CheckResult> {
  const { model, profile, session, bus, services, problems, numRuns, checkTimeoutMs } = env;
  const mask = (s: string) => session.mask(s);
  let stopReason: string | undefined;
  // One listener on the run's signal for every check in flight (24 at once by default), added with the
  // first and removed with the last: a listener per check tripped Node's MaxListenersExceededWarning.
  const inFlight = new Set<AbortController>();
  const onRunAbort = () => {
    for (const c of inFlight) c.abort(env.signal?.reason);
  };
  const track = (c: AbortController) => {
    if (inFlight.size === 0) env.signal?.addEventListener('abort', onRunAbort, { once: true });
    inFlight.add(c);
  };
  const untrack = (c: AbortController) => {
    inFlight.delete(c);
    if (inFlight.size === 0) env.signal?.removeEventListener('abort', onRunAbort);
  };

  return async (check: Check): Promise<CheckResult> => {
    const checkSeed = deriveSeed(env.seed, check.id);
    const began = performance.now();
    bus.emit({ type: 'check-started', checkId: check.id, title: check.title });
    const base = { checkId: check.id, title: check.title, area: check.area, section: check.section, rules: check.rules, seed: checkSeed };
    const finish = (r: CheckResult): CheckResult => {
      bus.emit({ type: 'check-finished', result: r });
      if ((r.verdict === 'fail' || r.verdict === 'blocked') && env.failFast) stopReason ??= `not run: --fail-fast stopped the run after ${check.id} failed`;
      return r;
    };
    const early = stopReason ?? (env.signal?.aborted ? 'not run: the run was cancelled' : undefined) ?? skipReasonFor(check, profile, model, services, problems);
    if (early) return finish({ ...base, verdict: 'skip', reason: early, durationMs: 0, requests: 0 });

    const controller = new AbortController();
    let timedOut: CheckTimeout | undefined;
    track(controller);
    // --safe is enforced on the wire, from the model's x-mutates / x-moves-money, not trusted to the check's mark.
    const safe = env.safe ? safeCheck(model, profile, services) : undefined;
    const http = session.client(check.id, { signal: controller.signal, onExchange: (exchange) => bus.emit({ type: 'exchange', exchange }), ...(safe ? { refuse: safe.refuse } : {}) });
    const refusedFailure = (durationMs: number): CheckResult | undefined =>
      safe?.refused.length
        ? { ...base, verdict: 'fail', failure: { message: mask(`--safe guard: the check tried ${safe.refused.join('; ')}; nothing of it was sent`), rules: check.rules, cause: 'SAFE_MODE_REFUSED' }, durationMs, requests: http.count }
        : undefined;
    // The limit grows with the time spent waiting on slow answers (src/runner/time-limit.ts).
    let timer: ReturnType<typeof setTimeout>;
    const arm = (ms: number) => {
      timer = setTimeout(() => {
        const elapsed = performance.now() - began;
        const allowed = allowedCheckMs(checkTimeoutMs, http.slowMs);
        if (elapsed + 50 < allowed) return arm(allowed - elapsed);
        timedOut = new CheckTimeout(Math.round(allowed));
        controller.abort(timedOut);
      }, ms);
    };
    arm(checkTimeoutMs);
    const warnings: string[] = [];
    const unjudged: Unjudged[] = [];
    const withWarnings = (r: CheckResult): CheckResult => ({ ...r, ...(warnings.length ? { warnings: [...warnings] } : {}), ...(unjudged.length ? { unjudged: [...unjudged] } : {}) });
    const ctx: CheckContext = {
      model,
      profile,
      http,
      seed: checkSeed,
      numRuns,
      ...(env.propertyBatch !== undefined ? { propertyBatch: env.propertyBatch } : {}),
      signal: controller.signal,
      services: safe?.services ?? services,
      safeMode: env.safe,
      skip(reason: string): never {
        throw new SkipSignal(reason);
      },
      log: (message) => env.onLog?.(check.id, mask(message)),
      warn: (message) => {
        const masked = mask(String(message));
        warnings.push(masked);
        bus.emit({ type: 'warning', checkId: check.id, message: masked });
      },
      couldNotJudge: (what, missing) => {
        unjudged.push({ what: mask(String(what)), missing: mask(String(missing)) });
        env.onLog?.(check.id, mask(`could not judge: ${what} (missing: ${missing})`));
      },
    };
    // Race the body against the abort so a check that ignores its signal still ends on time.
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    aborted.catch(() => undefined);
    try {
      await Promise.race([runWithContext(ctx, () => check.run(ctx)), aborted]);
      const refusedAfter = refusedFailure(Math.round(performance.now() - began));
      if (refusedAfter) return finish(withWarnings(refusedAfter));
      // Every answer the check received, not only those it asserted on (src/checks/audit.ts).
      const audit = auditResponses(model, http.observed(), true);
      if (audit) throw audit;
      return finish(withWarnings({ ...base, verdict: 'pass', durationMs: Math.round(performance.now() - began), requests: http.count }));
    } catch (err) {
      const durationMs = Math.round(performance.now() - began);
      const refused = refusedFailure(durationMs);
      if (refused) return finish(withWarnings(refused));
      const prerequisite = timedOut ? undefined : (blockedOrOwn(err, check, model, http, mask) ?? unreadableAnswer(err, http, mask));
      if (!timedOut && isSkipSignal(err)) {
        return finish(withWarnings({ ...base, verdict: 'skip', reason: mask(err.reason), durationMs, requests: http.count }));
      } else if (!timedOut && env.signal?.aborted) {
        return finish(withWarnings({ ...base, verdict: 'skip', reason: 'not completed: the run was cancelled', durationMs, requests: http.count }));
      } else if (prerequisite && 'blocked' in prerequisite) {
        return finish(withWarnings({ ...base, verdict: 'blocked', blocked: prerequisite.blocked, durationMs, requests: http.count }));
      }
      const own = prerequisite?.failure ?? failureFromError(err, check, http, mask, timedOut, model, profile.control_url);
      // The answers of a failing check are audited too: a bad answer it received keeps its own rule.
      const failure = withAudit(own, auditResponses(model, http.observed()), mask);
      return finish(withWarnings({ ...base, verdict: 'fail', failure, durationMs, requests: http.count }));
    } finally {
      clearTimeout(timer!);
      untrack(controller);
      if (!controller.signal.aborted) controller.abort(new Error('check finished'));
    }
  };
}

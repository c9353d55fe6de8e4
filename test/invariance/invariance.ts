// One target, one verdict: runs the full default suite against the embedded reference under a
// condition (conditions.ts) with a fixed seed, and compares each check's verdict with another run's.
// A verdict is the outcome (pass, fail, skip, blocked) and, when it is not a pass, the rules it
// names: the same outcome blamed on another rule is a different verdict.

import { runConformance } from '../../src/api/index.ts';
import { matchesPattern } from '../../src/runner/select.ts';
import { loadChecks } from '../../suites/index.ts';
import type { CheckResult } from '../../src/events/index.ts';
import { PROXY_CONTROL_PREFIX, startInterceptProxy, type InterceptProxy } from '../../src/mutants/proxy.ts';
import { startReference } from '../../src/reference/index.ts';
import { startBurners, type Burners } from './busy.ts';
import { chaosHooks, type ChaosTally } from './chaos.ts';
import type { Condition } from './conditions.ts';

export const INVARIANCE_DEFAULTS = {
  seed: 18,
  /**
   * Checks at once. More than `run`'s 4: under seconds of latency on every answer a run only waits,
   * and the wait divides by the checks in flight. At 32 the longest checks (60-70 serial requests,
   * about 45 s under the rough condition) start in the first wave instead of after most others (the
   * runner starts checks in suite order). Every condition uses the same number, quiet too.
   */
  concurrency: 32,
  /** Burners end themselves after this, whatever happens to the run. */
  busyMaxMs: 20 * 60_000,
} as const;

export interface ConditionRun {
  condition: Condition;
  wallMs: number;
  verdicts: Map<string, string>;
  results: CheckResult[];
  tally: ChaosTally;
}

export function verdictOf(r: CheckResult): string {
  if (r.verdict === 'pass') return 'pass';
  const rules = r.verdict === 'fail' ? r.failure?.rules : r.verdict === 'blocked' ? r.blocked?.rules : [];
  return `${r.verdict}${rules?.length ? ` [${[...rules].sort().join(', ')}]` : ''}`;
}

export interface RunUnderOptions {
  seed?: number;
  concurrency?: number;
  /** Only these checks (ids or patterns); the whole default suite when absent. */
  checks?: string[];
  /** The client's bound on waiting out 429s (default: the client's own). */
  rateLimitWaitMs?: number;
  /** Generated cases per property (default: the run's own). */
  numRuns?: number;
  /**
   * Each exclusive check (one that moves shared state: the clock, a rate limiter) against a reference and
   * proxy of its own, at the same time as the other checks against theirs, instead of one after another
   * at the end of the run. A run gives an exclusive check the reference to itself with nothing alongside;
   * so does its own reference, and the condition acts on its answers as on the others. Under seconds of
   * latency the exclusive checks were half the wall time (five, 25 s one after another, the rest 24 s).
   */
  exclusiveApart?: boolean;
}

export async function runUnder(condition: Condition, opts: RunUnderOptions = {}): Promise<ConditionRun> {
  if (opts.exclusiveApart) return runApart(condition, opts);
  const tally: ChaosTally = { answers: 0, refused429: 0, heldMs: 0 };
  const seed = opts.seed ?? INVARIANCE_DEFAULTS.seed;
  const reference = await startReference();
  let proxy: InterceptProxy | undefined;
  let burners: Burners | undefined;
  const began = performance.now();
  try {
    let profile = reference.profile;
    const hooks = chaosHooks(condition, seed, tally);
    if (hooks) {
      proxy = await startInterceptProxy(reference.profile, hooks);
      profile = { ...profile, base_url: proxy.baseUrl, ...(profile.control_url ? { control_url: `${proxy.baseUrl}${PROXY_CONTROL_PREFIX}` } : {}) };
    }
    if (condition.busyProcesses > 0) burners = startBurners(condition.busyProcesses, INVARIANCE_DEFAULTS.busyMaxMs);
    const outcome = await runConformance({
      profile,
      env: {},
      seed,
      concurrency: opts.concurrency ?? INVARIANCE_DEFAULTS.concurrency,
      ...(opts.checks ? { checks: opts.checks } : {}),
      ...(opts.rateLimitWaitMs !== undefined ? { rateLimitWaitMs: opts.rateLimitWaitMs } : {}),
      ...(opts.numRuns !== undefined ? { numRuns: opts.numRuns } : {}),
    });
    return {
      condition,
      wallMs: performance.now() - began,
      verdicts: new Map(outcome.results.map((r) => [r.checkId, verdictOf(r)])),
      results: outcome.results,
      tally,
    };
  } finally {
    await burners?.stop();
    await proxy?.close();
    await reference.close();
  }
}

/** runUnder with exclusiveApart: one run per exclusive check and one for the rest, at once, as one ConditionRun. */
async function runApart(condition: Condition, opts: RunUnderOptions): Promise<ConditionRun> {
  const { exclusiveApart: _, ...each } = opts;
  const picked = (await loadChecks()).filter((c) => !opts.checks || opts.checks.some((p) => matchesPattern(c.id, p)));
  const groups = [picked.filter((c) => !c.exclusive), ...picked.filter((c) => c.exclusive).map((c) => [c])].filter((g) => g.length > 0);
  // The busy processes compete with all the runs at once, as with one run: started here, once.
  const burners = condition.busyProcesses > 0 ? startBurners(condition.busyProcesses, INVARIANCE_DEFAULTS.busyMaxMs) : undefined;
  const began = performance.now();
  try {
    const quietCores = { ...condition, busyProcesses: 0 };
    const runs = await Promise.all(groups.map((g) => runUnder(quietCores, { ...each, checks: g.map((c) => c.id) })));
    const tally: ChaosTally = { answers: 0, refused429: 0, heldMs: 0 };
    for (const r of runs) for (const k of Object.keys(tally) as (keyof ChaosTally)[]) tally[k] += r.tally[k];
    return {
      condition,
      wallMs: performance.now() - began,
      verdicts: new Map(runs.flatMap((r) => [...r.verdicts])),
      results: runs.flatMap((r) => r.results),
      tally,
    };
  } finally {
    await burners?.stop();
  }
}

export interface VerdictChange {
  checkId: string;
  expected: string;
  actual: string;
  /** Why the changed check did not pass, from the run under the condition. */
  detail: string;
}

/** Every check whose verdict under `other` is not its verdict under `base` (a check missing from either counts). */
export function changedVerdicts(base: ConditionRun, other: ConditionRun): VerdictChange[] {
  const ids = new Set([...base.verdicts.keys(), ...other.verdicts.keys()]);
  const out: VerdictChange[] = [];
  for (const id of ids) {
    const expected = base.verdicts.get(id) ?? 'absent';
    const actual = other.verdicts.get(id) ?? 'absent';
    if (expected === actual) continue;
    const r = other.results.find((x) => x.checkId === id);
    const detail = (r?.failure?.message ?? r?.blocked?.message ?? r?.reason ?? '').slice(0, 300);
    out.push({ checkId: id, expected, actual, detail });
  }
  return out.sort((a, b) => a.checkId.localeCompare(b.checkId));
}

// compareTargets: the same seeded checks against two targets, one run after the other (the existing
// runner through runConformance, same seed, same selection), then the rule verdicts, check verdicts
// and the answers step by step side by side. The runs are sequential so neither target's load or
// rate limits bear on the other's answers.

import { runConformance, type ConformanceResult } from '../api/conformance.ts';
import type { Check } from '../checks/types.ts';
import { conclude, exitCodeOf, inconclusive } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import type { ResolvedProfile, TargetProfile } from '../profile/index.ts';
import { qualifyRunLimits } from '../options/run.ts';
import { publicUrl } from '../report/index.ts';
import { randomSeed } from '../runner/index.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { DifferenceTally, StepComparer } from './differences.ts';
import { pairSteps } from './pair.ts';
import { StepRecorder } from './steps.ts';
import { COMPARE_KIND, type CompareResult, type CompareTarget, type Side } from './types.ts';
import { checkDifferences, ruleDifferences } from './verdicts.ts';
import { volatileMatcher } from './volatile.ts';

export interface CompareOptions {
  /** The two targets: profile files (resolved against cwd) or profile objects, a first and b second. */
  profiles: [string | TargetProfile, string | TargetProfile];
  /** Run seed for both runs; random when absent (in the result). */
  seed?: number;
  /** Check selection as for run: exact ids, prefixes, globs. */
  checks?: string[];
  safe?: boolean;
  concurrency?: number;
  numRuns?: number;
  timeoutBudgetMs?: number;
  checkTimeoutMs?: number;
  rateLimitWaitMs?: number;
  /** Where credentials from the environment are read (default process.env), as for run. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  signal?: AbortSignal;
  /** Told when each run starts and ends (console progress). */
  onRun?: (side: Side, phase: 'start' | 'done', info: { baseUrl: string; result?: ConformanceResult }) => void;
  model?: Model;
  checkList?: Check[];
}

interface SideRun {
  result: ConformanceResult;
  recorder: StepRecorder;
  profile: ResolvedProfile;
}

async function runSide(side: Side, input: string | TargetProfile, seed: number, model: Model, opts: CompareOptions): Promise<SideRun> {
  const recorder = new StepRecorder(model);
  let profile: ResolvedProfile | undefined;
  const result = await runConformance({
    profile: input,
    env: opts.env,
    cwd: opts.cwd,
    seed,
    checks: opts.checks,
    safe: opts.safe,
    concurrency: opts.concurrency,
    numRuns: opts.numRuns,
    timeoutBudgetMs: opts.timeoutBudgetMs,
    checkTimeoutMs: opts.checkTimeoutMs,
    rateLimitWaitMs: opts.rateLimitWaitMs,
    signal: opts.signal,
    model,
    ...(opts.checkList ? { checkList: opts.checkList } : {}),
    onTarget: ({ profile: p }) => {
      profile = p;
      recorder.setTarget(p);
      opts.onRun?.(side, 'start', { baseUrl: publicUrl(p.base_url) });
    },
    onEvent: (e) => recorder.onEvent(e),
  });
  opts.onRun?.(side, 'done', { baseUrl: result.target.baseUrl, result });
  return { result, recorder, profile: profile! };
}

function targetOf(run: SideRun): CompareTarget {
  const t = run.result.target;
  return { ...(t.name ? { name: t.name } : {}), baseUrl: publicUrl(t.baseUrl), embedded: t.embedded, summary: run.result.summary, exitCode: run.result.exitCode };
}

export async function compareTargets(opts: CompareOptions): Promise<CompareResult> {
  // The run's bounds (RUN_BOUNDS), every problem at once, before either side starts.
  qualifyRunLimits(opts);
  const model = opts.model ?? (await loadModel());
  const seed = (opts.seed ?? randomSeed()) >>> 0;
  const started = new Date().toISOString();
  const a = await runSide('a', opts.profiles[0], seed, model, opts);
  const b = await runSide('b', opts.profiles[1], seed, model, opts);

  const ran = new Set([...a.result.results, ...b.result.results].map((r) => r.checkId));
  const rules = ruleDifferences(a.result.rules, b.result.rules, ran);
  const checks = checkDifferences(a.result.results, b.result.results);
  const checkRules = new Map([...a.result.results, ...b.result.results].map((r) => [r.checkId, r.rules]));
  const comparer = new StepComparer(model, volatileMatcher([...(a.profile.volatile_fields ?? []), ...(b.profile.volatile_fields ?? [])]), (id) => checkRules.get(id));
  const { pairs, unpaired } = pairSteps(a.recorder.steps, b.recorder.steps, comparer.alike);
  const specified = new DifferenceTally();
  const silent = new DifferenceTally();
  const perCheck = new Map<string, DifferenceTally>();
  let notCompared = 0;
  for (const pair of pairs) {
    if (!comparer.comparable(pair.a, pair.b)) {
      notCompared++;
      continue;
    }
    for (const found of comparer.differences(pair.operation, pair.a, pair.b)) {
      // A check the two targets judged differently explains its own differences: they sit with its verdict.
      if (checks.has(pair.check)) {
        const tally = perCheck.get(pair.check) ?? new DifferenceTally();
        tally.add(pair, found);
        perCheck.set(pair.check, tally);
      } else (found.placement.silent ? silent : specified).add(pair, found);
    }
  }
  for (const [id, tally] of perCheck) checks.get(id)!.steps = tally.list();
  const verdicts = { rules, checks: [...checks.values()] };
  // Two runs that judged nothing agree on every rule: that agreement says nothing about either target.
  const blind = (['a', 'b'] as const).filter((side) => (side === 'a' ? a : b).result.verdict === 'inconclusive');
  const nothing = blind.length ? inconclusive('the comparison', `the run against ${blind.map((x) => x.toUpperCase()).join(' and ')} judged nothing (every selected check skipped, or none was selected)`) : undefined;
  const [spec, quiet] = [specified.list(), silent.list()];
  return {
    kind: COMPARE_KIND,
    version: 1,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    seed,
    started,
    finished: new Date().toISOString(),
    targets: { a: targetOf(a), b: targetOf(b) },
    verdicts,
    specified: spec,
    silent: quiet,
    unpaired,
    counts: {
      rulesDiffering: rules.length,
      checksDiffering: verdicts.checks.length,
      specified: spec.length,
      silent: quiet.length,
      pairedSteps: pairs.length - notCompared,
      notCompared,
      unpairedSteps: unpaired.reduce((n, u) => n + u.count, 0),
    },
    exitCode: exitCodeOf(conclude(rules.length > 0, nothing !== undefined)),
    ...(nothing && !rules.length ? { inconclusive: nothing } : {}),
  };
}

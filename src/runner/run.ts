// The runner: selects checks, runs a preflight, starts per-run services, executes checks with
// bounded concurrency (exclusive ones alone, afterwards), and streams events to reporters. It knows
// nothing about specific rules: a check is an id, rule ids and a `run(ctx)`. One check's life is in
// run-check.ts, the mapping of what it threw in failure.ts, the options in options.ts.

import { randomUUID } from 'node:crypto';
import type { Check, RunServices } from '../checks/types.ts';
import { applyExpectedFailures, decideExit, diffRuns } from '../baseline/index.ts';
import { HttpSession } from '../client/index.ts';
import { ConfigError } from '../errors/index.ts';
import type { CheckResult, Reporter, RunSummary } from '../events/index.ts';
import { clockKeyOf, guardAdapter, httpControlAdapter, restoreClock } from '../control/index.ts';
import { coverageOf, minCoverageMessage, ruleVerdicts, summarize } from './coverage.ts';
import { rootCauses, withOutcomes } from './causes.ts';
import { EventBus } from './event-bus.ts';
import type { ServiceProblems } from './needs.ts';
import { runLimits, type RunOptions, type RunOutcome } from './options.ts';
import { preflight } from './preflight.ts';
import { checkRunner } from './run-check.ts';
import { randomSeed } from './seed.ts';
import { notSelectedReason, selectChecks } from './select.ts';
import { startServices } from './services.ts';
import { TOOL_VERSION } from './version.ts';

/**
 * Longest first: the run can end no sooner than its longest check, so that one starts at once and the
 * short ones fill the slots beside it. Stable: equal costs keep the selection order.
 */
export function byCost(checks: readonly Check[]): Check[] {
  return [...checks].sort((a, b) => (b.cost ?? 1) - (a.cost ?? 1));
}

async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(workers);
}

/** The selection flags in words, for a run that selected nothing. */
function selectionLabel(o: RunOptions): string | undefined {
  const parts = [o.shard ? `shard ${o.shard.index}/${o.shard.total}` : '', o.checkIds?.length ? `--check ${o.checkIds.join(', ')}` : '', o.safe ? '--safe' : ''].filter(Boolean);
  return parts.length ? parts.join(', ') : undefined;
}

/** Runs the checks against the target and streams events to the reporters. */
export async function runChecks(options: RunOptions, checks: Check[], reporters: Reporter[]): Promise<RunOutcome> {
  const { concurrency, numRuns, checkTimeoutMs, propertyBatch } = runLimits(options);
  const seed = (options.seed ?? randomSeed()) >>> 0;
  const { profile, model } = options;
  const ids = new Set<string>();
  for (const c of checks) {
    if (ids.has(c.id)) throw new ConfigError(`two checks share the id ${c.id}`);
    ids.add(c.id);
  }
  const selection = { safe: options.safe, checkIds: options.checkIds, shard: options.shard };
  const selected = selectChecks(checks, selection);
  if (options.checkIds?.length && selected.length === 0 && !options.shard) {
    throw new ConfigError(`--check ${options.checkIds.join(', ')} matches no check${options.safe ? ' kept by --safe' : ''}`);
  }
  const notSelected = new Map(checks.filter((c) => !selected.includes(c)).map((c) => [c.id, notSelectedReason(c, selection)]));

  const session = new HttpSession({ profile, model, timeoutBudgetMs: options.timeoutBudgetMs ?? model.requestTimeoutMs(), maxBodyBytes: options.maxBodyBytes, ...(options.rateLimitWaitMs !== undefined ? { retry: { maxWaitMs: options.rateLimitWaitMs } } : {}) });
  const bus = new EventBus(reporters);
  let servicesHandle: { close(): Promise<void> } | undefined;
  let receiver: { stats(): NonNullable<RunSummary['webhooks']> } | undefined;
  try {
    if (options.preflight !== false) await preflight(session);
    let services: RunServices = options.services ?? {};
    // Callers that bring their own services still get our control API when the profile names one.
    if (options.services && !services.control && profile.control_url) services = { ...services, control: httpControlAdapter(model) };
    let problems: ServiceProblems = {};
    if (!options.services) {
      const needing = options.servicesFor ?? selected;
      const want = {
        idp: needing.some((c) => c.needs?.includes('idp') || c.needs?.includes('idp_tokens')),
        webhooks: needing.some((c) => c.needs?.includes('webhooks')),
      };
      const started = await startServices(session, want, { controlAdapterFile: options.controlAdapterFile, webhookListen: options.webhookListen, env: options.env });
      servicesHandle = started;
      receiver = started.webhooks;
      services = started.services;
      problems = started.problems;
    }

    // The adapter as the checks see it: its errors are adapter errors, its clock moves are recorded.
    if (services.control) services = { ...services, control: guardAdapter(services.control, model, { clockKey: clockKeyOf(profile) }) };

    const startedAt = new Date();
    bus.emit({
      type: 'run-started',
      runId: randomUUID(),
      seed,
      target: profile.base_url,
      targetName: profile.name ?? profile.base_url,
      checks: selected.length,
      ...(options.shard ? { shard: `${options.shard.index}/${options.shard.total}` } : {}),
      safe: !!options.safe,
      startedAt: startedAt.toISOString(),
      toolVersion: TOOL_VERSION,
    });

    const results = new Map<string, CheckResult>();
    const runCheck = checkRunner({
      model, profile, session, bus, services, problems, seed, numRuns, propertyBatch, checkTimeoutMs,
      safe: !!options.safe, failFast: !!options.failFast, signal: options.signal, onLog: options.onLog,
    });
    const runOne = async (check: Check) => {
      results.set(check.id, await runCheck(check));
    };
    await pool(byCost(selected.filter((c) => !c.exclusive)), concurrency, runOne);
    // Exclusive checks move shared state (clock, rate limiter): one at a time, nothing alongside.
    for (const check of selected.filter((c) => c.exclusive)) await runOne(check);

    // Leave the sandbox as the run found it where it can: undo the clock moves (control resetClock).
    const clock = await restoreClock(services.control, session.client('run:sandbox'), clockKeyOf(profile));
    const ordered = selected.map((c) => results.get(c.id)!);
    const rules = withOutcomes(ruleVerdicts(model.rules, ordered, notSelected, checks), ordered);
    const causes = rootCauses(ordered);
    const summary = summarize(ordered, rules, Date.now() - startedAt.getTime(), causes);
    const diff = options.baseline ? diffRuns(options.baseline, { checks: ordered, rules }) : undefined;
    const expected = options.expectedFailures ? applyExpectedFailures(options.expectedFailures, ordered, ids) : undefined;
    summary.coverage = coverageOf(rules, ordered, notSelected, options.minCoverage);
    if (receiver) summary.webhooks = receiver.stats();
    if (clock) summary.sandbox = { clock: { ...clock, message: session.mask(clock.message) } };
    const coverageProblem = minCoverageMessage(summary.coverage);
    const exit = decideExit({ results: ordered, expected, strict: options.strict, selection: selectionLabel(options) });
    if (coverageProblem) {
      exit.reasons.push(coverageProblem);
      exit.code = 1;
      exit.verdict = 'fail';
    }
    bus.emit({
      type: 'run-finished',
      summary,
      rules,
      results: ordered,
      finishedAt: new Date().toISOString(),
      rootCauses: causes,
      ...(diff ? { diff } : {}),
      ...(expected ? { expected } : {}),
      exit,
    });
    await bus.drain();
    for (const r of reporters) await r.close?.();
    return { seed, results: ordered, rules, summary, rootCauses: causes, diff, expected, exitCode: exit.code, verdict: exit.verdict, exitReasons: exit.reasons, ...(coverageProblem ? { coverageProblem } : {}) };
  } finally {
    await servicesHandle?.close();
    await session.close();
  }
}

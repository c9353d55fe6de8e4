// The parts of the report view beyond pass/fail: root causes (read first), blocked checks (a setup
// step of another operation failed), warnings (recommended, not required: shown apart), the diff
// against a baseline, expected failures and the exit reasons. Plain data for the templates.

import type { CoverageSummary, DiffGroup, RootCause, RunDiff, RunSummary } from '../events/index.ts';
import type { Model } from '../model/types.ts';
import type { CollectedCheck, CollectedRun } from './collect.ts';
import { replayCurl } from './html-curl.ts';
import { anchorOf, cardHead, exchangeView, findRule, ruleLine, ruleQuote } from './html-parts.ts';
import { replayCommand } from './replay.ts';

interface Ctx {
  model?: Model;
  seed: number;
  replayBase: string;
  target: string;
  /** Checks present in the page, by id (a root cause links only to cards that exist). */
  present: Set<string>;
}

const link = (ctx: Ctx, id: string) => ({ id, anchor: ctx.present.has(id) ? anchorOf(id) : undefined });

function causeView(c: RootCause, ctx: Ctx) {
  return {
    kind: c.kind,
    blocking: c.kind === 'blocking',
    id: c.id,
    operation: c.operation,
    adapter: c.adapter,
    rules: c.rules.map((id) => ({ id, line: ruleLine(findRule(ctx.model, id)) })),
    message: c.message,
    checks: c.checks.map((id) => link(ctx, id)),
    blocked: c.blocked.map((id) => link(ctx, id)),
    explains: c.checks.length + c.blocked.length,
  };
}

/** A blocked check: its own rules were never observed; the failed step of `operation` is the cause. */
function blockedView(c: CollectedCheck, ctx: Ctx) {
  const b = c.blocked;
  const ex = b?.exchange ?? c.exchanges?.at(-1);
  const curl = ex && ctx.model ? replayCurl(ctx.model, ex.request, ctx.target, !!ex.traceId) : undefined;
  return {
    ...cardHead(c),
    operation: b?.operation,
    ...(b?.adapter ? { adapter: b.adapter } : {}),
    message: b?.message,
    causeRules: (b?.rules ?? []).map((id) => ruleQuote(ctx.model, id)),
    ownRules: c.rules,
    checkSeed: c.seed,
    runSeed: ctx.seed,
    replay: replayCommand(ctx.replayBase, ctx.seed, [c.checkId]),
    broke: ex ? exchangeView(ex) : undefined,
    curl,
  };
}

function groupView(g: DiffGroup) {
  return {
    newlyFailing: g.newlyFailing,
    fixed: g.fixed,
    newlySkipped: g.newlySkipped,
    other: g.other,
    counts: { newlyFailing: g.newlyFailing.length, fixed: g.fixed.length, newlySkipped: g.newlySkipped.length, other: g.other.length },
  };
}

function diffView(d: RunDiff | undefined) {
  if (!d) return undefined;
  return { baseline: d.baseline, checks: groupView(d.checks), rules: groupView(d.rules), onlyInBaseline: d.onlyInBaseline, onlyInCurrent: d.onlyInCurrent };
}

const pct = (share: number) => `${Math.round(share * 1000) / 10}%`;

/** Rule coverage as the runner computed it (--min-coverage compares exercisedShareOfTestable). */
function coverageView(c: CoverageSummary | undefined, webhooks: RunSummary['webhooks']) {
  if (!c) return undefined;
  return {
    rules: c.rules,
    ofTestable: { pct: pct(c.exercisedShareOfTestable), ratio: c.exercisedShareOfTestable },
    shares: { exercised: pct(c.shares.exercised), skipped: pct(c.shares.skipped), uncovered: pct(c.shares.uncovered), untestable: pct(c.shares.untestable) },
    skippedByReason: c.skippedByReason,
    minimum: c.minimum ? { pct: pct(c.minimum.share), met: c.minimum.met } : undefined,
    webhooks,
  };
}

export function outcomeView(run: CollectedRun, opts: { model?: Model; seed: number; replayBase: string; target: string }) {
  const ctx: Ctx = { ...opts, present: new Set(run.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'blocked').map((c) => c.checkId)) };
  const warned = run.checks.filter((c) => c.warnings?.length);
  return {
    rootCauses: run.rootCauses.map((c) => causeView(c, ctx)),
    blockedChecks: run.checks.filter((c) => c.verdict === 'blocked').map((c) => blockedView(c, ctx)),
    warnings: warned.map((c) => ({ checkId: c.checkId, verdict: c.verdict, messages: c.warnings ?? [] })),
    warningCount: warned.reduce((n, c) => n + (c.warnings?.length ?? 0), 0),
    diff: diffView(run.diff),
    expected: run.expected,
    exit: run.exit,
    coverage: coverageView(run.summary?.coverage, run.summary?.webhooks),
  };
}

// The view of a run for reports/report.html.hbs: counts by spec section and by area, failures
// opened on the exchange that broke the rule (expected beside actual, the rule quoted from the
// model, counterexample, seeds, a replayable curl), and the check and rule lists for the filter.
// Everything here is plain data; the template only lays it out.

import type { CheckResult, Exchange, FieldComparison, RuleVerdict } from '../events/index.ts';
import type { Model } from '../model/types.ts';
import type { CollectedCheck, CollectedRun } from './collect.ts';
import { COST_TOP, requestCosts } from './cost.ts';
import { replayCurl, type ReplayCurl } from './html-curl.ts';
import { outcomeView } from './html-outcome.ts';
import { anchorOf, cardHead, exchangeView, findRule, ruleLine, ruleQuote } from './html-parts.ts';
import { replayCommand } from './replay.ts';

/** The spec section a `section` string belongs to: "9.6" and "4.rule1" are in 9 and 4. */
export function majorSection(section: string): string {
  return String(section).split('.')[0];
}

const bySectionNumber = (a: string, b: string) => (Number(a) || 0) - (Number(b) || 0) || a.localeCompare(b);

function percent(part: number, whole: number): { pct: string; ratio: number } {
  if (whole === 0) return { pct: '–', ratio: 0 };
  return { pct: `${Math.round((part / whole) * 100)}%`, ratio: Math.round((part / whole) * 1000) / 1000 };
}

interface CheckCounts {
  pass: number;
  fail: number;
  blocked: number;
  skip: number;
  total: number;
}

function countChecks(checks: CheckResult[]): CheckCounts {
  const c = { pass: 0, fail: 0, blocked: 0, skip: 0, total: checks.length };
  for (const r of checks) if (r.verdict in c) c[r.verdict as 'pass' | 'fail' | 'blocked' | 'skip']++;
  return c;
}

/** Failed or blocked: both fail the run and both show under the "failed" filter. */
const failing = (v: string) => v === 'fail' || v === 'blocked';

function sectionRows(rules: RuleVerdict[], checks: CheckResult[]) {
  const keys = [...new Set([...rules.map((r) => majorSection(r.section)), ...checks.map((c) => majorSection(c.section))])].sort(bySectionNumber);
  const row = (label: string, rs: RuleVerdict[], cs: CheckResult[]) => {
    const n = (v: string) => rs.filter((r) => r.verdict === v).length;
    const testable = rs.length - n('untestable');
    const observed = n('pass') + n('fail');
    return {
      label,
      name: label === 'all' ? 'All sections' : `§${label}`,
      checks: countChecks(cs),
      rules: { total: rs.length, pass: n('pass'), fail: n('fail'), blocked: n('blocked'), skip: n('skip'), uncovered: n('uncovered'), untestable: n('untestable'), testable, observed },
      coverage: percent(observed, testable),
      cls: n('fail') || n('blocked') || cs.some((c) => failing(c.verdict)) ? 'is-fail' : '',
    };
  };
  return {
    rows: keys.map((k) => row(k, rules.filter((r) => majorSection(r.section) === k), checks.filter((c) => majorSection(c.section) === k))),
    total: row('all', rules, checks),
  };
}

function areaRows(checks: CheckResult[]) {
  const areas = [...new Set(checks.map((c) => c.area))].sort();
  return areas.map((area) => {
    const cs = checks.filter((c) => c.area === area);
    const counts = countChecks(cs);
    return { area, checks: counts, rules: new Set(cs.flatMap((c) => c.rules)).size, ran: percent(counts.pass + counts.fail, counts.total), cls: counts.fail || counts.blocked ? 'is-fail' : '' };
  });
}

const sameExchange = (a: Exchange, b: Exchange) =>
  a === b || (a.request.url === b.request.url && a.request.method === b.request.method && a.attempt === b.attempt && a.durationMs === b.durationMs && a.response?.status === b.response?.status && a.response?.body === b.response?.body);


function comparisonView(rows: FieldComparison[] | undefined) {
  if (!rows?.length) return undefined;
  return { rows: rows.map((r) => ({ ...r, cls: r.differs ? 'differs' : '' })), differing: rows.filter((r) => r.differs).map((r) => r.field) };
}

function failureView(c: CollectedCheck, ctx: { model?: Model; seed: number; replayBase: string; target: string }) {
  const f = c.failure;
  const all = c.exchanges ?? [];
  const broke = f?.exchange ?? all.at(-1);
  const others = broke ? all.filter((e) => !sameExchange(e, broke)) : all;
  let curl: ReplayCurl | undefined;
  if (broke && ctx.model) curl = replayCurl(ctx.model, broke.request, ctx.target, !!broke.traceId);
  return {
    ...cardHead(c),
    rules: (f?.rules ?? c.rules).map((id) => ruleQuote(ctx.model, id)),
    message: f?.message,
    cause: f?.cause,
    counterexample: f?.counterexample,
    comparison: comparisonView(f?.comparison),
    checkSeed: c.seed,
    runSeed: ctx.seed,
    replay: replayCommand(ctx.replayBase, ctx.seed, [c.checkId]),
    broke: broke ? exchangeView(broke) : undefined,
    others: others.map(exchangeView).reverse(),
    curl: curl ? { ...curl, fallback: broke?.curl } : broke ? { command: broke.curl, mint: [], env: [], stillMasked: true } : undefined,
  };
}

export interface ViewOptions {
  model?: Model;
  replayBase: string;
  tool: string;
  version: string;
}

export function buildReportView(run: CollectedRun, opts: ViewOptions) {
  const { started, summary, rules, checks, finishedAt } = run;
  const seed = started?.seed ?? 0;
  const target = started?.target ?? '';
  const counts = countChecks(checks);
  const sum = summary ?? { passed: counts.pass, failed: counts.fail, skipped: counts.skip, total: counts.total, requests: 0, durationMs: 0, rules: { total: rules.length, passed: 0, failed: 0, skipped: 0, uncovered: 0, untestable: 0 } };
  const failed = checks.filter((c) => c.verdict === 'fail');
  const ruleFails = rules.filter((r) => failing(r.verdict)).length;
  const ruleSkips = rules.filter((r) => r.verdict === 'skip').length;
  const groups = <T extends { section: string }>(items: T[]) =>
    [...new Set(items.map((i) => majorSection(i.section)))].sort(bySectionNumber).map((s) => ({ section: s, items: items.filter((i) => majorSection(i.section) === s) }));
  return {
    tool: opts.tool,
    version: started?.toolVersion ?? opts.version,
    target,
    targetName: started?.targetName ?? target,
    seed,
    shard: started?.shard,
    safe: started?.safe,
    started: started?.startedAt,
    finished: finishedAt,
    complete: !!summary,
    replay: replayCommand(opts.replayBase, seed),
    summary: sum,
    defaultFailed: failed.length + counts.blocked > 0,
    ...outcomeView(run, { model: opts.model, seed, replayBase: opts.replayBase, target }),
    filterCounts: { failedChecks: failed.length + counts.blocked, failedRules: ruleFails, skippedChecks: counts.skip, skippedRules: ruleSkips, allChecks: checks.length, allRules: rules.length },
    sections: sectionRows(rules, checks),
    areas: areaRows(checks),
    costs: { rows: requestCosts(checks).filter((c) => c.requests > 0).slice(0, COST_TOP) },
    failures: failed.map((c) => failureView(c, { model: opts.model, seed, replayBase: opts.replayBase, target })),
    checkGroups: groups(
      checks.map((c) => ({
        checkId: c.checkId,
        title: c.title,
        area: c.area,
        section: c.section,
        verdict: c.verdict,
        durationMs: c.durationMs,
        requests: c.requests,
        rules: c.rules,
        anchor: failing(c.verdict) ? anchorOf(c.checkId) : undefined,
        filter: failing(c.verdict) ? 'is-fail' : `is-${c.verdict}`,
        detail: c.verdict === 'skip' ? c.reason : c.verdict === 'fail' ? c.failure?.message : c.verdict === 'blocked' ? (c.blocked?.adapter ? `adapter error (not the target): ${c.blocked.message}` : `blocked by ${c.blocked?.operation}: ${c.blocked?.message}`) : '',
        warned: !!c.warnings?.length,
      })),
    ),
    ruleGroups: groups(rules.map((r) => ({ ...r, summary: r.summary || ruleLine(findRule(opts.model, r.id)), failedCheck: r.verdict === 'fail' ? r.checks.find((id) => failed.some((c) => c.checkId === id && (c.failure?.rules ?? c.rules).includes(r.id))) : undefined })).map((r) => ({ ...r, filter: failing(r.verdict) ? 'is-fail' : `is-${r.verdict}`, anchor: r.failedCheck ? anchorOf(r.failedCheck) : undefined }))),
  };
}

// Pass/fail with reasons. Thresholds are the operator's; the scenario's own contract (429 shape,
// recovery, the timeout budget) always applies. A threshold measured over zero samples (no request of
// its operation, no latency recorded, no answer judged) and a read-back that could not read judged
// nothing: the verdict is then inconclusive (exit 4), never a pass. A breach still fails first.

import { decodeHistogram } from './histogram.ts';
import type { LatencySummary } from './histogram.ts';
import type { Counts, EncodedHistogram, LoadResult, ThresholdOutcome, ThresholdRule, Thresholds, Verdict } from './types.ts';
import { conclude, inconclusive } from '../errors/index.ts';
import { consistencyReasons, consistencyUnjudged } from './consistency.ts';
import { findingLines } from './judge.ts';
import { scenarioById } from './scenarios.ts';
import { worstWindow } from './windows.ts';

export function errorRate(r: Pick<LoadResult, 'counts'>): number {
  return r.counts.attempts === 0 ? 0 : r.counts.errors / r.counts.attempts;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 1 ? 4 : 1));

type Measured = { counts: Counts; latency_ms: LatencySummary; histogram: EncodedHistogram };

/** The value a threshold rule compares: percentiles from the HDR histogram (ms), rates from the counts. */
export function measure(m: Measured, metric: string, durationS: number): number | null {
  if (m.counts.attempts === 0) return null;
  const p = /^p([0-9.]+)$/.exec(metric);
  // No latency recorded (every attempt a transport error): a percentile of nothing is not 0 ms.
  if ((p || metric === 'max' || metric === 'mean') && !m.latency_ms.count) return null;
  if (p) return Math.round(decodeHistogram(m.histogram.data).getValueAtPercentile(Number(p[1]))) / 1000;
  switch (metric) {
    case 'max':
      return m.latency_ms.max;
    case 'mean':
      return m.latency_ms.mean;
    case 'error_rate':
      return m.counts.errors / m.counts.attempts;
    case 'rps':
      return Math.round((m.counts.responses / durationS) * 100) / 100;
    case 'timeouts':
      return m.counts.timeouts;
    default:
      return null;
  }
}

const holds = (a: number, op: ThresholdRule['op'], b: number) => (op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b);

/** Conformance findings in a rule's scope (run, operation, rule id, or both); null when judging was off. */
export function conformanceErrors(r: Pick<LoadResult, 'conformance'>, rule: Pick<ThresholdRule, 'operation' | 'rule'>): number | null {
  const c = r.conformance;
  // Judging off, or no answer judged yet: zero findings of nothing judged is no evidence.
  if (!c || c.judged === 0) return null;
  if (rule.operation) {
    const byRule = c.by_operation[rule.operation] ?? {};
    return rule.rule ? (byRule[rule.rule] ?? 0) : Object.values(byRule).reduce((n, v) => n + v, 0);
  }
  return rule.rule ? (c.by_rule[rule.rule] ?? 0) : c.findings;
}

export function evaluateRules(r: Omit<LoadResult, 'verdict' | 'thresholds'>, rules: ThresholdRule[]): ThresholdOutcome[] {
  return rules.map((rule) => {
    const scope = { ...(rule.operation ? { operation: rule.operation } : {}), ...(rule.rule ? { rule: rule.rule } : {}) };
    if (rule.window_s !== undefined) {
      const w = worstWindow(r, rule);
      return { expr: rule.expr, ...scope, actual: w.actual, ...(w.window ? { window: w.window } : {}), pass: w.actual !== null && holds(w.actual, rule.op, rule.value) };
    }
    let actual: number | null;
    const target = rule.operation ? r.operations[rule.operation] : r;
    if (rule.metric === 'conformance_errors') actual = rule.operation && !target?.counts.responses ? null : conformanceErrors(r, rule);
    else actual = target ? measure(target, rule.metric, r.duration_s) : null;
    return { expr: rule.expr, ...scope, actual, pass: actual !== null && holds(actual, rule.op, rule.value) };
  });
}

/** Why a threshold measured nothing, in words (the value it compares has no sample behind it). */
function noSamples(r: Omit<LoadResult, 'verdict' | 'thresholds'>, o: ThresholdRule): string {
  if (o.metric === 'conformance_errors') {
    if (!r.conformance) return 'judging was off (--judge-sample 0), so no answer was judged';
    if (o.operation && !r.operations[o.operation]?.counts.responses) return `${o.operation} got no answer in the run`;
    return 'no answer was judged';
  }
  if (o.window_s !== undefined) return 'no window of the run had a completed request';
  if (o.operation && !r.operations[o.operation]) return `the run sent no ${o.operation} request`;
  return `${o.operation ? `${o.operation} ` : 'the run '}recorded no sample for it (no request, or no latency: every attempt a transport error)`;
}

export function evaluate(r: Omit<LoadResult, 'verdict' | 'thresholds'>, t: Thresholds): Verdict {
  const reasons: string[] = [];
  const unjudged: string[] = [];
  const rules = t.rules ?? [];
  const outcomes = evaluateRules(r, rules);
  for (const [i, o] of outcomes.entries()) {
    if (o.pass) continue;
    const scope = [o.rule, o.operation].filter(Boolean).join(' on ');
    if (o.actual === null) {
      o.inconclusive = true;
      unjudged.push(inconclusive(`threshold ${scope ? `${scope}: ` : ''}${o.expr}`, noSamples(r, rules[i])));
      continue;
    }
    const where = o.window ? ` in the window ${o.window.from_s}-${o.window.to_s} s` : '';
    const named = /conformance_errors/.test(o.expr) && r.conformance?.findings ? `: ${findingLines(r.conformance).slice(0, 3).join('; ')}` : '';
    reasons.push(`threshold ${scope ? `${scope}: ` : ''}${o.expr} breached (actual ${fmt(o.actual)}${where})${named}`);
  }
  const runConformanceRule = (t.rules ?? []).some((x) => x.metric === 'conformance_errors' && !x.operation && !x.rule);
  const conf = r.conformance;
  if (conf && !runConformanceRule && conf.findings > (t.conformanceErrorsMax ?? 0)) {
    const first = Object.values(conf.exchanges)[0]?.[0];
    reasons.push(
      `conformance_errors ${conf.findings} > ${t.conformanceErrorsMax ?? 0} (${conf.judged} of ${conf.answers} answers judged, sections 4 and 7: the rules \`run\` holds every answer to): ${findingLines(conf).slice(0, 5).join('; ')}${first ? `; first: ${first.op} HTTP ${first.status}: ${first.detail}` : ''}`,
    );
  }
  if (r.consistency) {
    reasons.push(...consistencyReasons(r.consistency));
    unjudged.push(...consistencyUnjudged(r.consistency));
  }
  if (r.aborted) reasons.push(`aborted at ${fmt(r.aborted.at_s)} s: ${r.aborted.reason}`);
  const c = r.counts;
  if (c.responses === 0) reasons.push(`no response at all in ${fmt(r.duration_s)} s (${c.transport_errors} transport errors, ${c.timeouts} timeouts)`);
  if (c.timeouts > 0) reasons.push(`${c.timeouts} request(s) exceeded the ${r.config.timeout_ms} ms timeout budget (section 8 recommended client timeout); max latency ${fmt(r.latency_ms.max)} ms`);
  if (c.incomplete > 0) {
    const oldest = Math.max(0, ...r.incomplete.map((x) => x.age_ms));
    reasons.push(`${c.incomplete} request(s) still unanswered after the ${r.config.drain_ms} ms drain (oldest ${oldest} ms)`);
  }
  const rate = errorRate(r);
  const maxRate = t.errorRateMax ?? 0;
  if (rate > maxRate) {
    const scenario = scenarioById(r.scenario.split('*')[0]);
    const what = scenario?.expectedNon2xx.length ? `non-2xx other than ${scenario.expectedNon2xx.join(', ')}` : 'non-2xx';
    reasons.push(`error rate ${fmt(rate)} (${c.errors}/${c.attempts}: ${what}, transport errors, timeouts) > --error-rate-max ${fmt(maxRate)}`);
  }
  if (t.p99MaxMs !== undefined && r.latency_ms.p99 > t.p99MaxMs) reasons.push(`p99 ${fmt(r.latency_ms.p99)} ms > --p99-max ${fmt(t.p99MaxMs)} ms`);
  if (t.rpsMin !== undefined && r.rps < t.rpsMin) reasons.push(`throughput ${fmt(r.rps)} req/s < --rps-min ${fmt(t.rpsMin)}`);
  const scenario = scenarioById(r.scenario.split('*')[0]);
  if (scenario?.require429 && c['429'] === 0) {
    reasons.push(`no 429 in ${c.responses} responses: the token endpoint limit was not reached (section 8: over-limit returns 429); raise --connections/--duration/--amount`);
  }
  for (const [id, k] of Object.entries(r.contracts ?? {})) {
    if (k.violations > 0) reasons.push(`${k.violations}/${k.checked} answers break contract ${id} (${k.rule}: ${k.title}): ${k.samples[0] ?? ''}`);
  }
  for (const rec of r.recovery ?? []) {
    if (!rec.recovered) reasons.push(`backoff client did not get through: ${rec.detail}`);
  }
  const outcome = conclude(reasons.length > 0, unjudged.length > 0);
  return { pass: outcome === 'pass', outcome, reasons, ...(unjudged.length ? { inconclusive: unjudged } : {}), ...(outcomes.length ? { thresholds: outcomes } : {}) };
}

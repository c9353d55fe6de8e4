// JUnit XML for CI: one testsuite per area, one testcase per check. Built in code (not a template)
// so that every interpolated value goes through xmlEscape.

import type { CoverageSummary, Exchange, Reporter, RunEvent } from '../events/index.ts';
import { RunCollector, type CollectedCheck } from './collect.ts';
import { writeReport } from './files.ts';
import { OUTSIDE_RULES } from './outcome-lines.ts';
import { xmlEscape as x } from './xml.ts';

const secs = (ms: number) => (ms / 1000).toFixed(3);

/** The ids the exchange's request carried (src/client/trace.ts), to find its server side. */
function traceLine(e: Exchange): string[] {
  return e.traceId ? [`trace: ${e.traceId} span: ${e.spanId} x-request-id: ${e.requestId}`] : [];
}

export function failureText(c: CollectedCheck): string {
  const f = c.failure!;
  const parts = [f.message, `rules: ${f.rules.join(', ')}`, `section: ${c.section}`, `seed: ${c.seed}`];
  if (f.cause) parts.push(`cause: ${f.cause}`);
  if (f.counterexample) parts.push('', f.counterexample);
  if (f.exchange) {
    parts.push('', `curl: ${f.exchange.curl}`, ...traceLine(f.exchange));
    if (f.exchange.response) parts.push(`response: HTTP ${f.exchange.response.status} ${f.exchange.response.body ?? ''}`);
  }
  return parts.join('\n');
}

/** A blocked check is a JUnit failure whose message names the blocking operation (the root cause), not the check's rules. */
export function blockedText(c: CollectedCheck): string {
  const b = c.blocked!;
  const parts = [`blocked by ${b.operation}: ${b.message}`, `blocking rules: ${b.rules.join(', ') || `none broken (${OUTSIDE_RULES})`}`, `own rules not observed: ${c.rules.join(', ')}`, `seed: ${c.seed}`];
  if (b.exchange) {
    parts.push('', `curl: ${b.exchange.curl}`, ...traceLine(b.exchange));
    if (b.exchange.response) parts.push(`response: HTTP ${b.exchange.response.status} ${b.exchange.response.body ?? ''}`);
  }
  return parts.join('\n');
}

function testcase(c: CollectedCheck): string {
  const open = `    <testcase classname="${x(c.area)}" name="${x(c.checkId)}" time="${secs(c.durationMs)}">`;
  const props = `      <properties><property name="title" value="${x(c.title)}"/><property name="rules" value="${x(c.rules.join(' '))}"/><property name="section" value="${x(c.section)}"/></properties>`;
  let body = '';
  if (c.verdict === 'skip') body = `      <skipped message="${x(c.reason)}"/>`;
  if (c.verdict === 'fail') body = `      <failure message="${x(c.failure?.message)}" type="${x(c.failure?.cause ?? 'CheckFailure')}">${x(failureText(c))}</failure>`;
  if (c.verdict === 'blocked' && c.blocked?.adapter) body = `      <failure message="${x(`control adapter error: ${c.blocked.message}`)}" type="AdapterError">${x(blockedText(c))}</failure>`;
  else if (c.verdict === 'blocked') body = `      <failure message="${x(`blocked by ${c.blocked?.operation}: ${c.blocked?.message}`)}" type="Blocked">${x(blockedText(c))}</failure>`;
  // Warnings do not fail a testcase (they fail the run only with --strict); CI shows system-out.
  const out = c.warnings?.length ? `      <system-out>${x(c.warnings.map((w) => `WARN: ${w}`).join('\n'))}</system-out>` : '';
  return [open, props, body, out, '    </testcase>'].filter(Boolean).join('\n');
}

/** Run-level rule coverage as properties (repeated on each suite: JUnit has no run-level properties). */
function coverageProps(c: CoverageSummary | undefined): string {
  if (!c) return '';
  const p = (name: string, v: unknown) => `<property name="coverage.${name}" value="${x(v)}"/>`;
  return [
    p('rules.exercised', c.rules.exercised),
    p('rules.skipped', c.rules.skipped),
    p('rules.untestable', c.rules.untestable),
    p('rules.total', c.rules.total),
    p('exercised_share_of_testable', c.exercisedShareOfTestable),
    ...(c.minimum ? [p('min_coverage', c.minimum.share), p('min_coverage_met', c.minimum.met)] : []),
  ].join('');
}

/**
 * A run that judged nothing (exit 4) as one errored testcase: with every testcase skipped (or none),
 * a CI's JUnit view would show green, so the verdict gets a testcase of its own that says so.
 */
function inconclusiveSuite(reasons: string[], timestamp: string | undefined): string[] {
  const text = reasons.filter((r) => r.startsWith('INCONCLUSIVE')).join('\n') || reasons.join('\n');
  return [
    `  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="${x(timestamp)}">`,
    `    <testcase classname="run" name="run.verdict" time="0.000">`,
    `      <error message="${x(text.split('\n')[0])}" type="Inconclusive">${x(text)}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ];
}

export function buildJunit(collector: RunCollector): string {
  const { started, checks, summary, exit } = collector.run;
  const areas = new Map<string, CollectedCheck[]>();
  for (const c of checks) (areas.get(c.area) ?? areas.set(c.area, []).get(c.area)!).push(c);
  const suites = [...areas].map(([area, list]) => {
    const n = (v: string) => list.filter((c) => c.verdict === v).length;
    const failures = n('fail') + n('blocked');
    const time = list.reduce((t, c) => t + c.durationMs, 0);
    return [
      `  <testsuite name="${x(area)}" tests="${list.length}" failures="${failures}" errors="0" skipped="${n('skip')}" time="${secs(time)}" timestamp="${x(started?.startedAt?.slice(0, 19))}">`,
      `    <properties><property name="seed" value="${x(started?.seed)}"/><property name="target" value="${x(started?.target)}"/>${coverageProps(summary?.coverage)}</properties>`,
      ...list.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  const open = exit?.verdict === 'inconclusive' ? inconclusiveSuite(exit.reasons, started?.startedAt?.slice(0, 19)) : [];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="baas-conform" tests="${checks.length + (open.length ? 1 : 0)}" failures="${(summary?.failed ?? 0) + (summary?.blocked ?? 0)}" errors="${open.length ? 1 : 0}" skipped="${summary?.skipped ?? 0}" time="${secs(summary?.durationMs ?? 0)}">`,
    ...suites,
    ...open,
    '</testsuites>',
    '',
  ].join('\n');
}

export class JunitReporter implements Reporter {
  private readonly collector = new RunCollector(1);
  constructor(private readonly path: string) {}
  onEvent(e: RunEvent): void {
    this.collector.onEvent(e);
  }
  async close(): Promise<void> {
    await writeReport(this.path, buildJunit(this.collector));
  }
}

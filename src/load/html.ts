// The HTML load report (reports/load.html.hbs, styled by reports/css/load.css): self-contained, inline
// SVG, through the same page template and CSP as the run report (src/report/html-template.ts: nothing
// may load or run, the one stylesheet allowed by its hash). Handlebars escapes every `{{value}}` and the
// template has no triple-stash, so strings that came from the target (429 bodies, Retry-After, error
// codes) render as inert text.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../errors/index.ts';
import { maskSecrets, type TargetProfile } from '../profile/index.ts';
import { pageTemplate } from '../report/html-template.ts';
import { GEOMETRY, fmt, latencyHistogram, percentileCurve, perSecond } from './charts.ts';
import { conformanceLine, modeLine } from './report.ts';
import type { LoadResult } from './types.ts';
import { errorRate } from './verdict.ts';

const num = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 3 });
const pct = (v: number) => `${(v * 100).toFixed(v > 0 && v < 0.001 ? 3 : 1)}%`;

function recoveryChart(r: NonNullable<LoadResult['recovery']>[number]) {
  const last = Math.max(1, ...r.attempts.map((a) => a.at_ms));
  const { W, PAD, plotW } = GEOMETRY;
  return {
    recovered: r.recovered,
    detail: r.detail,
    recovery_ms: r.recovery_ms,
    width: W,
    dots: r.attempts.map((a, i) => ({
      x: PAD.l + (a.at_ms / last) * plotW,
      y: 30,
      cls: a.status === 200 ? 'ok' : a.status === 429 ? 'limited' : 'err',
      title: `#${i + 1} at ${a.at_ms} ms: ${a.status}${a.retry_after !== undefined ? ` (Retry-After ${a.retry_after})` : ''}${a.waited_ms !== undefined ? `, then waited ${a.waited_ms} ms` : ''}`,
    })),
    attempts: r.attempts.map((a, i) => ({ n: i + 1, at_ms: a.at_ms, status: String(a.status), retry_after: a.retry_after ?? '', waited_ms: a.waited_ms ?? '' })),
    endLabel: `${last} ms`,
  };
}

export function buildLoadHtml(r: LoadResult): string {
  const l = r.latency_ms;
  const ops = Object.entries(r.operations).map(([op, o]) => ({
    op,
    attempts: o.counts.attempts,
    status: Object.entries(o.counts.status).map(([code, n]) => ({ code, n, bad: !(Number(code) >= 200 && Number(code) < 300) })),
    timeouts: o.counts.timeouts,
    transport: o.counts.transport_errors,
    incomplete: o.counts.incomplete,
    errors: o.counts.errors,
    p50: num(o.latency_ms.p50),
    p99: num(o.latency_ms.p99),
    p999: num(o.latency_ms.p999),
    max: num(o.latency_ms.max),
    stalled: o.latency_ms.max >= r.config.timeout_ms,
  }));
  const view = {
    title: `${r.scenario} (${r.mode} model)`,
    r,
    mode: modeLine(r),
    open: r.mode === 'open',
    pass: r.verdict.pass,
    inconclusive: (r.verdict.outcome ?? (r.verdict.pass ? 'pass' : 'fail')) === 'inconclusive',
    latency: { p50: num(l.p50), p90: num(l.p90), p99: num(l.p99), p999: num(l.p999), max: num(l.max), count: num(l.count), stalled: l.max >= r.config.timeout_ms },
    rps: num(r.rps),
    errorRate: pct(errorRate(r)),
    shape: r.config.stages.map((s) => ({ duration_s: num(s.duration_s), target: num(s.target) })),
    unit: r.mode === 'open' ? 'req/s' : 'connections',
    size: { w: GEOMETRY.W, h: GEOMETRY.H, plotBottom: GEOMETRY.PAD.t + GEOMETRY.plotH, plotLeft: GEOMETRY.PAD.l, plotRight: GEOMETRY.W - GEOMETRY.PAD.r },
    charts: {
      histogram: latencyHistogram(r.histogram.data, r.config.timeout_ms),
      percentiles: percentileCurve(r.histogram.data, r.config.timeout_ms),
      rps: perSecond(r.timeline, (p) => p.completed, (v) => `${num(Math.round(v))} req/s`),
      p99: perSecond(r.timeline, (p) => p.p99_ms, (v) => fmt.ms(v), true),
      s429: perSecond(r.timeline, (p) => (p.completed ? p.s429 / p.completed : 0), (v) => pct(v)),
    },
    ops,
    thresholds: (r.verdict.thresholds ?? []).map((t) => ({ ...t, actual: t.actual === null ? 'n/a' : num(t.actual) })),
    consistency: r.consistency ? { rows: Object.entries(r.consistency.by_operation).map(([op, c]) => ({ op, ...c, unreadable: c.unreadable ?? 0, bad: c.missing + c.differs > 0 })), problems: r.consistency.problems, notes: r.consistency.notes } : undefined,
    conformance: r.conformance
      ? {
          line: conformanceLine(r.conformance),
          sampled: r.conformance.sample < 1,
          rows: Object.entries(r.conformance.by_operation).flatMap(([op, rules]) => Object.entries(rules).map(([rule, count]) => ({ op, rule, count }))),
          exchanges: Object.entries(r.conformance.exchanges).map(([rule, list]) => ({ rule, list })),
        }
      : undefined,
    incomplete: r.incomplete.slice(0, 20),
    recovery: (r.recovery ?? []).map(recoveryChart),
    late: r.late_sends,
  };
  return pageTemplate('load', ['load']).render(view);
}

/** Writes load.json and load.html into `dir` (secrets masked in both). Returns the two paths. */
export async function writeLoadReport(dir: string, r: LoadResult, profile?: Partial<TargetProfile>, secrets: string[] = []): Promise<{ json: string; html: string }> {
  const json = join(dir, 'load.json');
  const html = join(dir, 'load.html');
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(json, maskSecrets(`${JSON.stringify(r, null, 2)}\n`, profile, secrets));
    await writeFile(html, maskSecrets(buildLoadHtml(r), profile, secrets));
  } catch (err) {
    throw new ConfigError(`load: cannot write the report to ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return { json, html };
}

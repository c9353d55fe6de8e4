// Console rendering of a load result (one table), and the JSON file with secrets masked.

import { writeFile } from 'node:fs/promises';
import { ConfigError } from '../errors/index.ts';
import { maskSecrets, type TargetProfile } from '../profile/index.ts';
import type { LoadResult } from './types.ts';
import { findingLines } from './judge.ts';
import { errorRate } from './verdict.ts';

const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 3 });

export function renderResult(r: LoadResult): string {
  const c = r.counts;
  const l = r.latency_ms;
  const rows: [string, string][] = [
    ['scenario', `${r.scenario}: ${r.sends}`],
    ['target', r.target],
    ['mode', modeLine(r)],
    ['load', `${shapeLine(r)}, at most ${n(r.config.max_requests)} requests, budget ${r.config.timeout_ms} ms, drain ${r.config.drain_ms} ms${r.config.shard ? `, shard ${r.config.shard.index}/${r.config.shard.count}` : ''}`],
  ];
  if (r.sources.length > 1) rows.push(['sources', r.sources.map((s) => `${s.machine}@${s.started_at}`).join(', ')]);
  rows.push(
    ['requests', `${n(c.responses)} responses in ${n(r.duration_s)} s wall time of the load phase = ${n(r.rps)} req/s`],
    ['latency ms', `p50 ${n(l.p50)}  p90 ${n(l.p90)}  p99 ${n(l.p99)}  p99.9 ${n(l.p999)}  max ${n(l.max)}  (${n(l.count)} samples)`],
    ...(r.corrected_latency_ms ? [['corrected ms', `p50 ${n(r.corrected_latency_ms.p50)}  p90 ${n(r.corrected_latency_ms.p90)}  p99 ${n(r.corrected_latency_ms.p99)}  p99.9 ${n(r.corrected_latency_ms.p999)}  (coordinated-omission estimate, expected interval ${n(r.corrected_latency_ms.expected_interval_ms)} ms; not in the verdict)`] as [string, string]] : []),
    ['status', `2xx ${n(c['2xx'])}  429 ${n(c['429'])}  other 4xx ${n(c['4xx'])}  5xx ${n(c['5xx'])}  3xx/other ${n(c['3xx'] + c.other)}  timeouts ${n(c.timeouts)}  incomplete ${n(c.incomplete)}  transport errors ${n(c.transport_errors)}`],
    ['errors', `${n(c.errors)} of ${n(c.attempts)} attempts (rate ${errorRate(r).toFixed(4)})${Object.keys(c.error_kinds).length ? ` ${JSON.stringify(c.error_kinds)}` : ''}`],
  );
  if (r.mode === 'open') rows.push(['late sends', `${n(r.late_sends.count)} (mean ${n(r.late_sends.mean_ms)} ms, max ${n(r.late_sends.max_ms)} ms; ${n(r.late_sends.waited_for_connection)} found every connection busy, the rest the generator behind), charged to latency`]);
  if (r.incomplete.length) rows.push(['incomplete', r.incomplete.slice(0, 10).map((x) => `${x.op} ${n(x.age_ms)} ms`).join(', ')]);
  const ops = Object.entries(r.operations);
  if (ops.length > 1) {
    for (const [op, o] of ops) {
      const st = Object.entries(o.counts.status).map(([k, v]) => `${k}:${n(v)}`).join(' ');
      rows.push([`  ${op}`.slice(0, 13), `${op}: p50 ${n(o.latency_ms.p50)} p99 ${n(o.latency_ms.p99)} max ${n(o.latency_ms.max)} ms; ${st}${o.counts.timeouts ? ` timeouts:${o.counts.timeouts}` : ''}`]);
    }
  }
  if (r.token_refreshes !== undefined) rows.push(['tokens', `${n(r.token_refreshes)} refresh(es) during the run (section 8 refresh buffer)`]);
  if (r.conformance) rows.push(['conformance', conformanceLine(r.conformance)]);
  else rows.push(['conformance', 'not judged (--judge-sample 0)']);
  if (r.consistency) {
    for (const [op, c] of Object.entries(r.consistency.by_operation)) rows.push(['consistency', `${op}: ${n(c.acknowledged)} acknowledged, ${n(c.verified)} read back as sent, ${n(c.missing)} lost, ${n(c.differs)} different, ${n(c.unreadable ?? 0)} could not be read, ${n(c.unchecked)} not read back`]);
    for (const p of r.consistency.problems.slice(0, 5)) rows.push([p.problem.startsWith('could not read') ? '  unread' : '  lost/diff', `${p.op} ${p.id}: ${p.problem}`]);
    for (const note of r.consistency.notes) rows.push(['consistency', note]);
  }
  if (r.aborted) rows.push(['aborted', `sending stopped at ${n(r.aborted.at_s)} s: ${r.aborted.reason}`]);
  for (const t of r.verdict.thresholds ?? []) {
    const scope = [t.rule, t.operation].filter(Boolean).join(' on ');
    rows.push(['threshold', `${t.pass ? 'pass' : t.inconclusive ? 'INCONCLUSIVE' : 'FAIL'}  ${scope ? `${scope}: ` : ''}${t.expr} (actual ${t.actual === null ? 'n/a' : n(t.actual)}${t.window ? `, worst window ${t.window.from_s}-${t.window.to_s} s` : ''})`]);
  }
  for (const [id, k] of Object.entries(r.contracts ?? {})) {
    rows.push(['contract', `${id} (${k.rule}): ${n(k.checked)} checked, ${n(k.violations)} violations (expected ${k.expected})${k.tally ? `; ${k.tally.label} on ${n(k.tally.count)}` : ''}`]);
  }
  for (const rec of r.recovery ?? []) {
    const trail = rec.attempts.map((a) => `${a.status}${a.retry_after !== undefined ? `(ra ${a.retry_after})` : ''}`).join(' ');
    rows.push(['recovery', `${rec.recovered ? `backoff client got through after ${n(rec.recovery_ms ?? 0)} ms` : 'NOT recovered'}: ${rec.detail} [${trail}]`]);
  }
  for (const note of r.notes) rows.push(['note', note]);
  const outcome = r.verdict.outcome ?? (r.verdict.pass ? 'pass' : 'fail');
  const listed = (xs: string[]) => xs.map((x) => `\n${' '.repeat(15)}- ${x}`).join('');
  // A failure lists its reasons first; what judged nothing follows (a failed run may also have left things unjudged).
  rows.push(['verdict', `${outcome === 'pass' ? 'PASS' : outcome === 'fail' ? 'FAIL' : 'INCONCLUSIVE (exit 4: judged nothing somewhere, see below; never a pass)'}${listed(r.verdict.reasons)}${listed(r.verdict.inconclusive ?? [])}`]);
  return `${rows.map(([k, v]) => `${k.padEnd(13)}  ${v}`).join('\n')}\n`;
}

export function conformanceLine(c: NonNullable<LoadResult['conformance']>): string {
  const sampled = c.sample < 1 ? ` (sampled: --judge-sample ${c.sample})` : '';
  const lines = findingLines(c);
  return `${n(c.judged)} of ${n(c.answers)} answers judged${sampled}: ${n(c.findings)} finding(s)${lines.length ? `: ${lines.slice(0, 6).join('; ')}` : ''}`;
}

export function modeLine(r: LoadResult): string {
  return r.mode === 'open' ? `open model (arrival rate, latency from intended send time)` : `closed model (connections; latency from actual send)`;
}

function shapeLine(r: LoadResult): string {
  const cfg = r.config;
  const unit = r.mode === 'open' ? 'req/s' : 'connections';
  const constant = cfg.stages.length === 1 && cfg.start === cfg.stages[0].target;
  const shape = constant ? `${n(cfg.stages[0].target)} ${unit} for ${n(cfg.duration_s)} s` : `stages ${n(cfg.start)}${cfg.stages.map((s) => ` -> ${n(s.target)} in ${n(s.duration_s)} s`).join('')} (${unit})`;
  return r.mode === 'open' ? `${shape}, up to ${cfg.connections} connections` : shape;
}

export async function writeResult(file: string, r: LoadResult, profile?: Partial<TargetProfile>, secrets: string[] = []): Promise<void> {
  const text = maskSecrets(`${JSON.stringify(r, null, 2)}\n`, profile, secrets);
  try {
    await writeFile(file, text);
  } catch (err) {
    throw new ConfigError(`load: cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

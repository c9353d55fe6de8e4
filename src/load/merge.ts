// `load merge`: results of the same scenario run at the same time on N machines against one target.
// Histograms and counts are added; percentiles are recomputed from the summed histogram (never
// averaged); throughput is the sum of each machine's req/s (the runs are assumed concurrent).

import { readInputFile } from '../input/index.ts';
import type { ValidateFunction } from 'ajv';
import { ConfigError } from '../errors/index.ts';
import { schemaFileValidator } from '../schemas/index.ts';
import type { Histogram } from 'hdr-histogram-js';
import { correctedSummary, decodeHistogram, encodeHistogram, newHistogram, summarise, HISTOGRAM_ENCODING, HISTOGRAM_UNIT } from './histogram.ts';
import { mergeConsistency } from './consistency.ts';
import { mergeContracts } from './contract-run.ts';
import { mergeConformance } from './judge.ts';
import { round2 } from './result.ts';
import type { TimelinePoint } from './timeline.ts';
import { LOAD_RESULT_KIND, LOAD_RESULT_VERSION, type Counts, type LoadResult, type OperationResult, type Thresholds } from './types.ts';
import { evaluate } from './verdict.ts';

/** spec/schemas/load-result.schema.json, compiled once (src/schemas). */
export async function resultValidator(): Promise<ValidateFunction> {
  return schemaFileValidator('load-result.schema.json');
}

export async function readResultFile(file: string): Promise<LoadResult> {
  const doc = await readInputFile(file, { what: 'load merge: result file', format: 'json' });
  const r = doc.value as { kind?: unknown; version?: unknown } | null;
  if (r?.kind !== LOAD_RESULT_KIND || r?.version !== LOAD_RESULT_VERSION) throw new ConfigError(`load merge: ${file} is not a baas-conform load result (kind ${LOAD_RESULT_KIND}, version ${LOAD_RESULT_VERSION})`);
  const validate = await resultValidator();
  if (!validate(r)) {
    const e = validate.errors![0];
    throw doc.problem(e.instancePath, `${e.message ?? e.keyword} (spec/schemas/load-result.schema.json)`);
  }
  return r as LoadResult;
}

function addRecord(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b ?? {})) out[k] = (out[k] ?? 0) + v;
  return out;
}

function addCounts(a: Counts, b: Counts): Counts {
  const keys = ['attempts', 'responses', '2xx', '3xx', '4xx', '429', '5xx', 'other', 'timeouts', 'transport_errors', 'incomplete', 'errors'] as const;
  const out = { ...a, status: addRecord(a.status, b.status), error_kinds: addRecord(a.error_kinds, b.error_kinds) };
  for (const k of keys) out[k] = (a[k] ?? 0) + (b[k] ?? 0);
  return out;
}

const copyCounts = (c: Counts): Counts => ({ ...c, status: { ...c.status }, error_kinds: { ...c.error_kinds } });

function mergeOperations(inputs: LoadResult[]): Record<string, OperationResult> {
  const acc = new Map<string, { counts: Counts; hist: Histogram }>();
  for (const r of inputs) {
    for (const [op, o] of Object.entries(r.operations)) {
      const cur = acc.get(op);
      if (!cur) acc.set(op, { counts: copyCounts(o.counts), hist: decodeHistogram(o.histogram.data) });
      else {
        cur.counts = addCounts(cur.counts, o.counts);
        cur.hist.add(decodeHistogram(o.histogram.data));
      }
    }
  }
  const out: Record<string, OperationResult> = {};
  for (const [op, { counts, hist }] of [...acc].sort(([a], [b]) => a.localeCompare(b))) {
    out[op] = { counts, latency_ms: summarise(hist), histogram: { encoding: HISTOGRAM_ENCODING, unit: HISTOGRAM_UNIT, data: encodeHistogram(hist) } };
  }
  return out;
}

/**
 * Second by second, aligned on each source's start second. Seconds whose sources carry their histogram
 * are added exactly (p99 recomputed: windowed thresholds of the merge equal those of one run on the
 * same samples); otherwise p99 per second is the highest of the sources (an upper bound).
 */
function mergeTimelines(inputs: LoadResult[]): TimelinePoint[] {
  const t0 = Math.min(...inputs.map((r) => Date.parse(r.started_at)));
  const out: TimelinePoint[] = [];
  const hists = new Map<number, Histogram>();
  for (const r of inputs) {
    const shift = Math.round((Date.parse(r.started_at) - t0) / 1000);
    for (const p of r.timeline) {
      const t = p.t + shift;
      for (let i = out.length; i <= t; i++) out[i] = { t: i, sent: 0, completed: 0, ok: 0, s429: 0, errors: 0, timeouts: 0, p99_ms: 0 };
      const o = out[t];
      o.sent += p.sent;
      o.completed += p.completed;
      o.ok += p.ok;
      o.s429 += p.s429;
      o.errors += p.errors;
      o.timeouts += p.timeouts;
      o.p99_ms = Math.max(o.p99_ms, p.p99_ms);
      if (p.hist) {
        const h = hists.get(t);
        if (h) h.add(decodeHistogram(p.hist));
        else hists.set(t, decodeHistogram(p.hist));
      }
    }
  }
  for (const [t, h] of hists) {
    out[t].hist = encodeHistogram(h);
    out[t].p99_ms = Math.round(h.getValueAtPercentile(99)) / 1000;
  }
  return out;
}

export function mergeResults(inputs: LoadResult[], thresholds: Thresholds = {}): LoadResult {
  if (inputs.length < 2) throw new ConfigError('load merge: give at least two result files');
  const scenarios = new Set(inputs.map((r) => r.scenario));
  if (scenarios.size > 1) throw new ConfigError(`load merge: results are of different scenarios (${[...scenarios].join(', ')}); merge only runs of one scenario`);
  const modes = new Set(inputs.map((r) => r.mode));
  if (modes.size > 1) throw new ConfigError('load merge: results mix the open and the closed model; merge only runs of one model');
  const hist = newHistogram();
  let counts: Counts | undefined;
  for (const r of inputs) {
    hist.add(decodeHistogram(r.histogram.data));
    counts = counts ? addCounts(counts, r.counts) : copyCounts(r.counts);
  }
  const first = inputs[0];
  const targets = new Set(inputs.map((r) => r.target));
  const contracts = mergeContracts(inputs.flatMap((r) => (r.contracts ? [r.contracts] : [])));
  const notes = [...new Set(inputs.flatMap((r) => r.notes))];
  notes.push(`merged ${inputs.length} results: histograms and counts added, percentiles recomputed from the sum; req/s is the sum over sources (runs assumed concurrent).`);
  if (targets.size > 1) notes.push(`warning: the results name different targets (${[...targets].join(', ')})`);
  const starts = inputs.map((r) => r.started_at).sort();
  const ends = inputs.map((r) => r.finished_at).sort();
  const late = inputs.map((r) => r.late_sends);
  const lateCount = late.reduce((n, l) => n + l.count, 0);
  const sum = (f: (r: LoadResult) => number) => inputs.reduce((n, r) => n + f(r), 0);
  const base: Omit<LoadResult, 'verdict' | 'thresholds'> = {
    kind: LOAD_RESULT_KIND,
    version: LOAD_RESULT_VERSION,
    tool: first.tool,
    scenario: first.scenario,
    sends: first.sends,
    target: [...targets].join(', '),
    mode: first.mode,
    sources: inputs.flatMap((r) => r.sources),
    started_at: starts[0],
    finished_at: ends[ends.length - 1],
    duration_s: Math.max(...inputs.map((r) => r.duration_s)),
    config: {
      ...first.config,
      connections: sum((r) => r.config.connections),
      max_requests: sum((r) => r.config.max_requests),
      arrival_rate: first.mode === 'open' ? round2(sum((r) => r.config.arrival_rate ?? 0)) : null,
      start: sum((r) => r.config.start),
      stages: first.config.stages.map((s, i) => ({ duration_s: s.duration_s, target: round2(sum((r) => r.config.stages[i]?.target ?? 0)) })),
      shard: null,
    },
    counts: counts!,
    rps: round2(sum((r) => r.rps)),
    latency_ms: summarise(hist),
    histogram: { encoding: first.histogram.encoding, unit: 'us', data: encodeHistogram(hist) },
    ...(first.mode === 'closed' && hist.totalCount ? { corrected_latency_ms: correctedSummary(hist) } : {}),
    operations: mergeOperations(inputs),
    timeline: mergeTimelines(inputs),
    late_sends: { count: lateCount, max_ms: Math.max(...late.map((l) => l.max_ms)), mean_ms: lateCount ? round2(late.reduce((n, l) => n + l.mean_ms * l.count, 0) / lateCount) : 0, waited_for_connection: late.reduce((n, l) => n + l.waited_for_connection, 0) },
    incomplete: inputs.flatMap((r) => r.incomplete).slice(0, 100),
    ...(contracts ? { contracts } : {}),
    ...(inputs.some((r) => r.conformance) ? { conformance: mergeConformance(inputs.flatMap((r) => (r.conformance ? [r.conformance] : [])))! } : {}),
    ...(inputs.some((r) => r.consistency) ? { consistency: mergeConsistency(inputs.flatMap((r) => (r.consistency ? [r.consistency] : [])))! } : {}),
    ...(inputs.some((r) => r.aborted) ? { aborted: inputs.map((r) => r.aborted).filter((a) => a !== undefined).sort((a, b) => a.at_s - b.at_s)[0] } : {}),
    ...(inputs.some((r) => r.recovery) ? { recovery: inputs.flatMap((r) => r.recovery ?? []) } : {}),
    ...(inputs.some((r) => r.token_refreshes !== undefined) ? { token_refreshes: sum((r) => r.token_refreshes ?? 0) } : {}),
    notes,
  };
  return { ...base, thresholds, verdict: evaluate(base, thresholds) };
}

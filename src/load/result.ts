// From an engine run to the LoadResult: counts (overall and per operation), percentiles from the
// HDR histograms, the timeline, late sends and incomplete requests.

import { hostname } from 'node:os';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import type { EngineRun, OpStats } from './engine.ts';
import { correctedSummary, encodeHistogram, summarise, HISTOGRAM_ENCODING, HISTOGRAM_UNIT } from './histogram.ts';
import { LOAD_RESULT_KIND, LOAD_RESULT_VERSION, type ConformanceResult, type ConsistencyResult, type ContractResult, type Counts, type LoadConfig, type LoadResult, type OperationResult, type RecoveryResult } from './types.ts';

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

export function countsFrom(status: Record<string, number>, transport: number, timeouts: number, errorKinds: Record<string, number>, expectedNon2xx: number[], incomplete = 0): Counts {
  const c: Counts = { attempts: 0, responses: 0, '2xx': 0, '3xx': 0, '4xx': 0, '429': 0, '5xx': 0, other: 0, timeouts, transport_errors: transport, incomplete, errors: 0, status, error_kinds: errorKinds };
  let unexpected = 0;
  for (const [code, n] of Object.entries(status)) {
    const s = Number(code);
    c.responses += n;
    if (s === 429) c['429'] += n;
    else if (s >= 200 && s < 300) c['2xx'] += n;
    else if (s >= 300 && s < 400) c['3xx'] += n;
    else if (s >= 400 && s < 500) c['4xx'] += n;
    else if (s >= 500 && s < 600) c['5xx'] += n;
    else c.other += n;
    if (!(s >= 200 && s < 300) && !expectedNon2xx.includes(s)) unexpected += n;
  }
  c.attempts = c.responses + transport + timeouts + incomplete;
  c.errors = unexpected + transport + timeouts + incomplete;
  return c;
}

const opCounts = (s: OpStats, expected: number[]) => countsFrom({ ...s.status }, s.transport, s.timeouts, { ...s.error_kinds }, expected, s.incomplete);

export interface ResultInputs {
  run: EngineRun;
  scenario: string;
  sends: string;
  target: string;
  config: LoadConfig;
  expectedNon2xx: number[];
  contracts?: Record<string, ContractResult>;
  conformance?: ConformanceResult;
  consistency?: ConsistencyResult;
  recovery?: RecoveryResult[];
  tokenRefreshes?: number;
  notes: string[];
}

export function buildResult(i: ResultInputs): Omit<LoadResult, 'verdict' | 'thresholds'> {
  const { run } = i;
  const operations: Record<string, OperationResult> = {};
  const all: Counts = countsFrom({}, 0, 0, {}, i.expectedNon2xx);
  for (const [op, s] of [...run.ops].sort(([a], [b]) => a.localeCompare(b))) {
    const counts = opCounts(s, i.expectedNon2xx);
    operations[op] = { counts, latency_ms: summarise(s.hist), histogram: { encoding: HISTOGRAM_ENCODING, unit: HISTOGRAM_UNIT, data: encodeHistogram(s.hist) } };
    for (const k of ['attempts', 'responses', '2xx', '3xx', '4xx', '429', '5xx', 'other', 'timeouts', 'transport_errors', 'incomplete', 'errors'] as const) all[k] += counts[k];
    for (const [c, n] of Object.entries(counts.status)) all.status[c] = (all.status[c] ?? 0) + n;
    for (const [c, n] of Object.entries(counts.error_kinds)) all.error_kinds[c] = (all.error_kinds[c] ?? 0) + n;
  }
  const duration_s = round2(Math.max(0.01, run.wall_ms / 1000));
  const started = run.started_at;
  const finished = new Date(started.getTime() + run.wall_ms);
  return {
    kind: LOAD_RESULT_KIND,
    version: LOAD_RESULT_VERSION,
    tool: `${TOOL_NAME} ${TOOL_VERSION}`,
    scenario: i.scenario,
    sends: i.sends,
    target: i.target,
    mode: i.config.model,
    sources: [{ machine: hostname(), started_at: started.toISOString(), duration_s, connections: i.config.connections, shard: i.config.shard ? `${i.config.shard.index}/${i.config.shard.count}` : null }],
    started_at: started.toISOString(),
    finished_at: finished.toISOString(),
    duration_s,
    config: i.config,
    counts: all,
    rps: round2(all.responses / duration_s),
    latency_ms: summarise(run.overall),
    histogram: { encoding: HISTOGRAM_ENCODING, unit: HISTOGRAM_UNIT, data: encodeHistogram(run.overall) },
    ...(i.config.model === 'closed' && run.overall.totalCount ? { corrected_latency_ms: correctedSummary(run.overall) } : {}),
    operations,
    timeline: run.timeline.points(),
    late_sends: { count: run.late.count, max_ms: round2(run.late.max_ms), mean_ms: run.late.count ? round2(run.late.total_ms / run.late.count) : 0, waited_for_connection: run.late.waited_for_connection },
    incomplete: run.incomplete.slice(0, 100),
    ...(i.contracts ? { contracts: i.contracts } : {}),
    ...(i.conformance ? { conformance: i.conformance } : {}),
    ...(i.consistency ? { consistency: i.consistency } : {}),
    ...(run.stopped ? { aborted: run.stopped } : {}),
    ...(i.recovery ? { recovery: i.recovery } : {}),
    ...(i.tokenRefreshes !== undefined ? { token_refreshes: i.tokenRefreshes } : {}),
    notes: i.notes,
  };
}

// `load merge`: results of the same scenario run at the same time on N machines against one target.
// Histograms and counts are added; percentiles are recomputed from the summed histogram (never
// averaged); throughput is the sum of each machine's req/s (the runs are assumed concurrent).

import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors/index.ts';
import { decodeHistogram, encodeHistogram, newHistogram, summarise } from './histogram.ts';
import { round2 } from './run.ts';
import { LOAD_RESULT_KIND, LOAD_RESULT_VERSION, type Counts, type LoadResult, type Thresholds } from './types.ts';
import { evaluate } from './verdict.ts';

export async function readResultFile(file: string): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`load merge: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let r: any;
  try {
    r = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`load merge: ${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (r?.kind !== LOAD_RESULT_KIND || r?.version !== LOAD_RESULT_VERSION) throw new ConfigError(`load merge: ${file} is not a baas-conform load result (kind ${LOAD_RESULT_KIND}, version ${LOAD_RESULT_VERSION})`);
  if (typeof r.histogram?.data !== 'string' || r.histogram.unit !== 'us' || typeof r.counts?.attempts !== 'number') throw new ConfigError(`load merge: ${file} has no histogram or counts`);
  return r as LoadResult;
}

function addRecord(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b ?? {})) out[k] = (out[k] ?? 0) + v;
  return out;
}

function addCounts(a: Counts, b: Counts): Counts {
  const keys = ['attempts', 'responses', '2xx', '3xx', '4xx', '429', '5xx', 'other', 'timeouts', 'transport_errors', 'errors'] as const;
  const out = { ...a, status: addRecord(a.status, b.status), error_kinds: addRecord(a.error_kinds, b.error_kinds) };
  for (const k of keys) out[k] = (a[k] ?? 0) + (b[k] ?? 0);
  return out;
}

export function mergeResults(inputs: LoadResult[], thresholds: Thresholds = {}): LoadResult {
  if (inputs.length < 2) throw new ConfigError('load merge: give at least two result files');
  const scenarios = new Set(inputs.map((r) => r.scenario));
  if (scenarios.size > 1) throw new ConfigError(`load merge: results are of different scenarios (${[...scenarios].join(', ')}); merge only runs of one scenario`);
  const hist = newHistogram();
  let counts: Counts | undefined;
  for (const r of inputs) {
    hist.add(decodeHistogram(r.histogram.data));
    counts = counts ? addCounts(counts, r.counts) : { ...r.counts, status: { ...r.counts.status }, error_kinds: { ...r.counts.error_kinds } };
  }
  const first = inputs[0];
  const targets = new Set(inputs.map((r) => r.target));
  const contracts = inputs.map((r) => r.contract).filter((c) => c !== undefined);
  const notes = [...new Set(inputs.flatMap((r) => r.notes))];
  notes.push(`merged ${inputs.length} results: histograms and counts added, percentiles recomputed from the sum; req/s is the sum over sources (runs assumed concurrent).`);
  if (targets.size > 1) notes.push(`warning: the results name different targets (${[...targets].join(', ')})`);
  const starts = inputs.map((r) => r.started_at).sort();
  const ends = inputs.map((r) => r.finished_at).sort();
  const base: Omit<LoadResult, 'verdict' | 'thresholds'> = {
    kind: LOAD_RESULT_KIND,
    version: LOAD_RESULT_VERSION,
    tool: first.tool,
    scenario: first.scenario,
    sends: first.sends,
    target: [...targets].join(', '),
    sources: inputs.flatMap((r) => r.sources),
    started_at: starts[0],
    finished_at: ends[ends.length - 1],
    duration_s: Math.max(...inputs.map((r) => r.duration_s)),
    config: { ...first.config, connections: inputs.reduce((n, r) => n + r.config.connections, 0), max_requests: inputs.reduce((n, r) => n + r.config.max_requests, 0), rate: inputs.every((r) => r.config.rate !== null) ? inputs.reduce((n, r) => n + (r.config.rate ?? 0), 0) : null },
    counts: counts!,
    rps: round2(inputs.reduce((n, r) => n + r.rps, 0)),
    latency_ms: summarise(hist),
    histogram: { encoding: first.histogram.encoding, unit: 'us', data: encodeHistogram(hist) },
    autocannon_latency_ms: inputs.flatMap((r) => r.autocannon_latency_ms),
    ...(contracts.length
      ? {
          contract: {
            checked: contracts.reduce((n, c) => n + c.checked, 0),
            violations: contracts.reduce((n, c) => n + c.violations, 0),
            expected_category: contracts[0].expected_category,
            retry_after_present: contracts.reduce((n, c) => n + c.retry_after_present, 0),
            samples: contracts.flatMap((c) => c.samples).slice(0, 5),
          },
        }
      : {}),
    ...(inputs.some((r) => r.recovery) ? { recovery: inputs.flatMap((r) => r.recovery ?? []) } : {}),
    notes,
  };
  return { ...base, thresholds, verdict: evaluate(base, thresholds) };
}

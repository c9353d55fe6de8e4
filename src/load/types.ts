// The load result: what `baas-conform load --out FILE` writes and `load merge` reads.
import type { LatencySummary } from './histogram.ts';

export const LOAD_RESULT_KIND = 'baas-conform.load-result';
export const LOAD_RESULT_VERSION = 1;

export interface Thresholds {
  /** Fail when p99 latency (ms) is above this. */
  p99MaxMs?: number;
  /** Fail when errors / attempts is above this (default 0). */
  errorRateMax?: number;
  /** Fail when throughput (req/s) is below this. */
  rpsMin?: number;
}

export interface Verdict {
  pass: boolean;
  reasons: string[];
}

export interface Counts {
  /** Responses + transport errors + timeouts. */
  attempts: number;
  responses: number;
  '2xx': number;
  '3xx': number;
  /** 4xx other than 429. */
  '4xx': number;
  '429': number;
  '5xx': number;
  other: number;
  /** Requests that exceeded the timeout budget (a failure, always). */
  timeouts: number;
  /** Connection errors, resets (not timeouts). */
  transport_errors: number;
  /** Non-2xx the scenario does not expect + transport errors + timeouts. */
  errors: number;
  /** Per status code. */
  status: Record<string, number>;
  /** Transport errors by code or message. */
  error_kinds: Record<string, number>;
}

export interface ContractResult {
  /** 429 responses checked against section 7/8. */
  checked: number;
  violations: number;
  /** Expected error_category.category for 429 (from the model). */
  expected_category: string;
  /** 429 responses carrying Retry-After (not required by the spec; honoured when present). */
  retry_after_present: number;
  /** Up to 5 examples of violations. */
  samples: string[];
}

export interface RecoveryAttempt {
  at_ms: number;
  status: number | 'error';
  retry_after?: string;
  waited_ms?: number;
}

export interface RecoveryResult {
  recovered: boolean;
  /** From the first probe to the first 200 (ms); null when never recovered. */
  recovery_ms: number | null;
  attempts: RecoveryAttempt[];
  /** First probe already got 200: the limit window had reset before the probe started. */
  limited_at_start: boolean;
  detail: string;
}

export interface LoadResult {
  kind: typeof LOAD_RESULT_KIND;
  version: typeof LOAD_RESULT_VERSION;
  tool: string;
  scenario: string;
  sends: string;
  target: string;
  /** Hosts that produced this result (several after a merge). */
  sources: { machine: string; started_at: string; duration_s: number; connections: number }[];
  started_at: string;
  finished_at: string;
  /** Wall time of the load phase in seconds (max over sources after a merge). */
  duration_s: number;
  config: {
    connections: number;
    pipelining: 1;
    duration_s: number;
    max_requests: number;
    rate: number | null;
    timeout_ms: number;
    open_loop: false;
  };
  counts: Counts;
  /** Responses per second: completed responses / duration (sum over sources after a merge). */
  rps: number;
  latency_ms: LatencySummary;
  histogram: { encoding: 'hdr-histogram-compressed-base64'; unit: 'us'; data: string };
  /** autocannon's own latency percentiles (its histogram, ms), per source, for cross-checking. */
  autocannon_latency_ms: { p50: number; p90: number; p99: number; p999: number; max: number }[];
  contract?: ContractResult;
  recovery?: RecoveryResult[];
  notes: string[];
  thresholds: Thresholds;
  verdict: Verdict;
}

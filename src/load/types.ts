// The load result: what `baas-conform load --out FILE` writes and `load merge` reads.
import type { LatencySummary } from './histogram.ts';
import type { TimelinePoint } from './timeline.ts';

export const LOAD_RESULT_KIND = 'baas-conform.load-result';
export const LOAD_RESULT_VERSION = 4;

/** closed: N connections, each sends after the previous response; open: a fixed arrival schedule. */
export type LoadModel = 'closed' | 'open';

export interface Thresholds {
  /** Fail when p99 latency (ms) is above this. */
  p99MaxMs?: number;
  /** Fail when errors / attempts is above this (default 0). */
  errorRateMax?: number;
  /** Fail when throughput (req/s) is below this. */
  rpsMin?: number;
  /** Fail when the conformance findings exceed this (default 0: any finding fails), unless a `conformance_errors` rule for the run is given. */
  conformanceErrorsMax?: number;
  /** Threshold expressions (`p99 < 500`, `error_rate < 0.01`, `p99 < 500 over 10s`), overall, per operation or per rule. */
  rules?: ThresholdRule[];
}

export interface ThresholdRule {
  /** As written, e.g. `p99 < 500`. */
  expr: string;
  /** `p<N>` (ms), `max`, `mean`, `error_rate`, `rps`, `timeouts`, `conformance_errors`. */
  metric: string;
  op: '<' | '<=' | '>' | '>=';
  value: number;
  /** operationId; absent for the whole run. */
  operation?: string;
  /** Rule id of the model (conformance_errors only): findings under that rule. */
  rule?: string;
  /** `over Ns`: the metric in every window of this many seconds (sliding by 1 s); the worst window decides. */
  window_s?: number;
  /** Stop sending as soon as the rule fails (after `grace_s`), k6's abortOnFail. */
  abort_on_fail?: boolean;
  /** Seconds from the start before an abort_on_fail rule is evaluated (k6's delayAbortEval). */
  grace_s?: number;
}

export interface ThresholdOutcome {
  expr: string;
  operation?: string;
  rule?: string;
  /** Windowed rules: the worst window, [from, to) seconds from the start. */
  window?: { from_s: number; to_s: number };
  actual: number | null;
  pass: boolean;
  /** No sample behind the value (actual null): the threshold judged nothing, the run is inconclusive. */
  inconclusive?: boolean;
}

export interface Verdict {
  /** True only when the run passed: false on a breach and when it is inconclusive. */
  pass: boolean;
  /** fail (a reason) > inconclusive (judged nothing somewhere) > pass. Absent from results written before it existed. */
  outcome?: 'pass' | 'fail' | 'inconclusive';
  /** Failure reasons. */
  reasons: string[];
  /** What judged nothing ("INCONCLUSIVE: ... judged nothing because ..."): thresholds without samples, read-backs that could not read. */
  inconclusive?: string[];
  /** Each threshold rule with its measured value. */
  thresholds?: ThresholdOutcome[];
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
  /** Requests still unanswered when the drain after the load phase ended (a failure, always). */
  incomplete: number;
  /** Non-2xx the scenario does not expect + transport errors + timeouts + incomplete. */
  errors: number;
  /** Per status code. */
  status: Record<string, number>;
  /** Transport errors by code or message. */
  error_kinds: Record<string, number>;
}

/** One load contract's tally (src/load/contract.ts), under its id in `LoadResult.contracts`. */
export interface ContractResult {
  /** The spec rule the contract holds answers to. */
  rule: string;
  title: string;
  /** What a conforming answer carries (from the model). */
  expected: string;
  /** Answers the contract read. */
  checked: number;
  violations: number;
  /** Up to 5 examples of violations. */
  samples: string[];
  /** Answers with a property the spec leaves free, counted (token-burst: 429s carrying Retry-After). */
  tally?: { label: string; count: number };
}

/** One offending exchange kept for the report (bodies cut and their secret fields masked). */
export interface ConformanceExchange {
  op: string;
  /** ms from the start of the run. */
  at_ms: number;
  /** METHOD path as sent. */
  request: string;
  request_body?: string;
  status: number;
  content_type: string | null;
  response_body: string;
  /** What the rule found. */
  detail: string;
}

/** Every answer (or the sampled share) judged by the rules `run` holds every answer to (src/checks/audit.ts). */
export interface ConformanceResult {
  /** Share of answers judged (1: all; --judge-sample F). */
  sample: number;
  /** Answers received; judged: those judged. */
  answers: number;
  judged: number;
  findings: number;
  /** Findings per rule id. */
  by_rule: Record<string, number>;
  /** operationId -> rule id -> findings. */
  by_operation: Record<string, Record<string, number>>;
  /** rule id -> the first few offending exchanges. */
  exchanges: Record<string, ConformanceExchange[]>;
}

/** Per creating operation: acknowledged writes and what reading them back found. */
export interface ConsistencyCounts {
  /** 2xx creations recorded during the load. */
  acknowledged: number;
  /** Read back with the values the caller set. */
  verified: number;
  /** Acknowledged, then reported absent by an answer read whole (400/404/410 for it, or a whole list without it). */
  missing: number;
  /** Read back with a field the caller set holding another value. */
  differs: number;
  /**
   * Could not read: the read-back answer was not read whole (over the body bound, not JSON, no answer,
   * still 429, a server error). Says nothing either way: the run is inconclusive, not passed, not failed.
   * Absent from results written before it existed.
   */
  unreadable: number;
  /** Not read back: no way to read it (a path the spec does not show and the profile does not give), or no id in the answer. */
  unchecked: number;
}

/** The consistency scenario: every acknowledged write read back after the load phase. */
export interface ConsistencyResult {
  by_operation: Record<string, ConsistencyCounts>;
  /** The first problems (bounded): operation, resource id, what was wrong. */
  problems: { op: string; id: string; problem: string }[];
  notes: string[];
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

export interface OperationResult {
  counts: Counts;
  latency_ms: LatencySummary;
  histogram: EncodedHistogram;
}

export interface EncodedHistogram {
  encoding: 'hdr-histogram-compressed-base64';
  unit: 'us';
  data: string;
}

export interface LoadConfig {
  model: LoadModel;
  /** closed: connections (most, over the stages); open: most connections the generator opens. */
  connections: number;
  /** open: the arrival rate (req/s) of a constant run, or the highest stage target; null when closed. */
  arrival_rate: number | null;
  /** Ramp stages (plans); a constant run has one. */
  start: number;
  stages: { duration_s: number; target: number }[];
  duration_s: number;
  max_requests: number;
  timeout_ms: number;
  /** How long in-flight requests were waited for after the load phase. */
  drain_ms: number;
  shard: { index: number; count: number } | null;
  /** Open model: arrival pattern and its seed (a poisson schedule is the same for the same seed). */
  arrivals?: { kind: 'uniform' | 'poisson'; seed: number };
}

export interface LoadResult {
  kind: typeof LOAD_RESULT_KIND;
  version: typeof LOAD_RESULT_VERSION;
  tool: string;
  scenario: string;
  sends: string;
  target: string;
  /** Hosts that produced this result (several after a merge). */
  sources: { machine: string; started_at: string; duration_s: number; connections: number; shard: string | null }[];
  started_at: string;
  finished_at: string;
  /** The load model that produced these figures. */
  mode: LoadModel;
  /** Wall time of the load phase in seconds, from the first send to the end of the drain (max over sources after a merge). */
  duration_s: number;
  config: LoadConfig;
  counts: Counts;
  /** Completed responses / wall time of the load phase (sum over sources after a merge). */
  rps: number;
  /** Latency in ms; open model: from each request's intended send time. */
  latency_ms: LatencySummary;
  histogram: EncodedHistogram;
  /** Closed model: percentiles after HdrHistogram's coordinated-omission correction (expected interval: the median). An estimate, not used by the verdict. */
  corrected_latency_ms?: LatencySummary & { expected_interval_ms: number };
  /** Per operationId. */
  operations: Record<string, OperationResult>;
  /** Second by second, by completion time. */
  timeline: TimelinePoint[];
  /** Open model: sends that went out more than 1 ms after their intended time (no free connection, or the generator behind); charged to latency. */
  late_sends: { count: number; max_ms: number; mean_ms: number; waited_for_connection: number };
  /** Requests unanswered at the end of the drain, with their age (first 100). */
  incomplete: { op: string; age_ms: number }[];
  /** By contract id: the contracts the scenarios hold their answers to. */
  contracts?: Record<string, ContractResult>;
  /** Absent when judging was off (--judge-sample 0). */
  conformance?: ConformanceResult;
  /** consistency scenario: acknowledged writes read back after the load. */
  consistency?: ConsistencyResult;
  /** Sending stopped early: an abort_on_fail threshold failed. */
  aborted?: { at_s: number; reason: string };
  recovery?: RecoveryResult[];
  /** Token refreshes made during the run (section 8 refresh buffer). */
  token_refreshes?: number;
  notes: string[];
  thresholds: Thresholds;
  verdict: Verdict;
}

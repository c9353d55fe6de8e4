// The engine's vocabulary: what it is asked to send and what it reports. See engine.ts.

import type { SecureContext } from 'node:tls';
import type { Histogram } from 'hdr-histogram-js';
import { newHistogram } from './histogram.ts';
import type { Shape } from './schedule.ts';
import type { SecondBucket, Timeline } from './timeline.ts';

export interface EngineRequest {
  /** Operation id (per-operation figures). */
  op: string;
  method: string;
  /** Full request path (base_url prefix included). */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface OpStats {
  hist: Histogram;
  status: Record<string, number>;
  timeouts: number;
  transport: number;
  incomplete: number;
  error_kinds: Record<string, number>;
}

export interface Progress {
  elapsed_s: number;
  rps: number;
  p99_ms: number;
  errors: number;
  in_flight: number;
  queued: number;
  completed: number;
}

export interface EngineOptions {
  origin: string;
  /** TLS context trusting profile.ca_file, for an https origin signed by a private CA. */
  secureContext?: SecureContext;
  model: 'closed' | 'open';
  /** closed: connections over time; open: arrival rate (req/s) over time. */
  shape: Shape;
  /** open: most connections (sends beyond wait for one and are late). closed: ignored (shape). */
  maxConnections: number;
  maxRequests: number;
  timeoutMs: number;
  /** How long to wait for requests in flight when the load phase ends (default: timeoutMs). */
  drainMs?: number;
  next: () => EngineRequest;
  isError: (status: number) => boolean;
  /** Which answers' bodies to keep: non-zero flags (token-burst: 429; the judge: every sampled answer), handed to onBody. */
  bodyFor?: (status: number, op: string) => number;
  /** `head`: the answer's header block as text (read one header with dispatch.ts headerIn; no map is built per answer). */
  onBody?: (req: EngineRequest, status: number, head: string, body: string, flags: number) => void;
  /** Every settled request: its operation, status (0: timeout, transport error or incomplete) and latency (us). Live metrics. */
  onSettled?: (op: string, status: number, us: number, kind: 'status' | 'timeout' | 'transport' | 'incomplete') => void;
  /** Live figures the engine keeps current (in flight, late sends): read by the metrics endpoint. */
  live?: { inFlight: number; late: number };
  /** Polled every 250 ms during the load phase: a reason stops sending early (abort_on_fail). */
  stopWhen?: (timeline: Timeline, elapsedMs: number) => string | undefined;
  onProgress?: (p: Progress) => void;
  progressEveryMs?: number;
  /** Open model: arrival pattern (default uniform) and the seed of a randomised one. */
  arrivals?: { kind: 'uniform' | 'poisson'; seed: number };
  /** Open model: move every arrival this many ms (a shard's place in the whole schedule; <= 0). */
  arrivalShiftMs?: number;
  /** Every value recorded in the overall histogram (us), for checking merges against raw data. */
  onSample?: (us: number) => void;
}

export interface Incomplete {
  op: string;
  age_ms: number;
}

export interface EngineRun {
  started_at: Date;
  /** Wall time of the load phase: first send to the end of the drain (ms). */
  wall_ms: number;
  /** Time sends were scheduled for (ms). */
  send_ms: number;
  overall: Histogram;
  ops: Map<string, OpStats>;
  timeline: Timeline;
  sent: number;
  /** Sends more than 1 ms after their intended time; `waited_for_connection`: of those, the ones that found every connection busy. */
  late: { count: number; max_ms: number; total_ms: number; waited_for_connection: number };
  incomplete: Incomplete[];
  max_in_flight: number;
  /** Why sending stopped before the schedule ended (stopWhen), with the elapsed time. */
  stopped?: { at_s: number; reason: string };
}

export function newOpStats(): OpStats {
  return { hist: newHistogram(), status: {}, timeouts: 0, transport: 0, incomplete: 0, error_kinds: {} };
}

/** Counts a request that got no status (timed out, or failed in transport by error kind) in its operation and its second. */
export function countUnanswered(st: OpStats, b: SecondBucket, kind: 'timeout' | 'transport', errKind: string): void {
  if (kind === 'timeout') {
    st.timeouts++;
    b.timeouts++;
  } else {
    st.transport++;
    st.error_kinds[errKind] = (st.error_kinds[errKind] ?? 0) + 1;
  }
  b.errors++;
}

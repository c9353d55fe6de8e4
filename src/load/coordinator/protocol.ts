// What shards and the coordinator say to each other (JSON over HTTP, the run token as a bearer
// token), and the bounds every message is held to before anything in it is believed: a shard is a
// process on another machine, so its messages are input like any other, sized and counted.

import { createHash } from 'node:crypto';
import { CoordinatorProtocolError } from '../../errors/index.ts';

/** Every bound of the protocol, in one place (the README and the tests read them from here). */
export const COORDINATOR_LIMITS = {
  /** Most bytes of a join or a report. */
  maxReportBytes: 1 << 20,
  /** Most bytes of a shard's final result (its own load.json: histograms per second included). */
  maxFinalBytes: 32 << 20,
  /** Most second buckets, operations, statuses per operation and rules in one report. */
  maxSeconds: 64,
  maxOperations: 256,
  maxStatuses: 64,
  maxRules: 512,
  /** Most shards one coordinator takes. */
  maxShards: 1000,
  /** Reports a shard may send: this many times the intervals of the run's whole length, plus a few. */
  reportSlack: 2,
  /** Consecutive failed reports after which a shard treats its coordinator as lost. */
  lostAfterFailures: 3,
  /** Intervals without a report (and 10 s at least) after which the coordinator counts a shard as silent. */
  silentIntervals: 5,
  /** How long the coordinator waits for every shard to join, and a shard to get in, unless told (ms). */
  joinTimeoutMs: 300_000,
} as const;

export const PROTOCOL_VERSION = 1;

export interface JoinRequest {
  version: number;
  shard: { index: number; total: number };
  plan_digest: string;
  machine: string;
}

export interface JoinAnswer {
  /** Start sending this many ms after the answer arrives (relative: clocks of shards need not agree). */
  start_in_ms: number;
  interval_ms: number;
  run_id: string;
}

/** One second of the run (from the common start), this interval's samples only: an HDR delta. */
export interface SecondDelta {
  s: number;
  /** HDR histogram (compressed base64, us) of the latencies recorded in this second since the last report. */
  hist: string;
  completed: number;
  errors: number;
  timeouts: number;
}

export interface Report {
  shard: number;
  seq: number;
  /** ms since this shard's start. */
  at_ms: number;
  seconds: SecondDelta[];
  /** operationId -> status (HTTP status, timeout, transport_error, incomplete) -> requests since the last report. */
  requests: Record<string, Record<string, number>>;
  /** rule id -> operationId -> findings since the last report. */
  findings: Record<string, Record<string, number>>;
  /** Answers judged and received since the last report. */
  judged: number;
  answers: number;
  /** Open model: sends more than 1 ms after their intended time, since the last report. */
  late_sends: number;
}

export interface ReportAnswer {
  /** Set once the coordinator stops the run: why (the threshold, its value, when). */
  stop?: string;
}

/** The plan's identity: sha256 of its parsed content with sorted keys (formatting and comments do not count). */
export function planDigest(plan: unknown): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])])) : v;
  return `sha256:${createHash('sha256').update(JSON.stringify(canon(plan))).digest('hex')}`;
}

const ProtocolError = CoordinatorProtocolError;

const count = (v: unknown, what: string): number => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new ProtocolError(`${what} must be a non-negative integer`);
  return v;
};

function countMap(v: unknown, what: string, most: number): Record<string, number> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ProtocolError(`${what} must be an object`);
  const entries = Object.entries(v);
  if (entries.length > most) throw new ProtocolError(`${what} has ${entries.length} keys, more than ${most}`);
  const out: Record<string, number> = {};
  for (const [k, n] of entries) {
    if (k.length > 128) throw new ProtocolError(`${what}: a key longer than 128 characters`);
    out[k] = count(n, `${what}.${k}`);
  }
  return out;
}

function nested(v: unknown, what: string, outer: number, inner: number): Record<string, Record<string, number>> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ProtocolError(`${what} must be an object`);
  const entries = Object.entries(v);
  if (entries.length > outer) throw new ProtocolError(`${what} has ${entries.length} keys, more than ${outer}`);
  return Object.fromEntries(entries.map(([k, m]) => [k.slice(0, 128), countMap(m, `${what}.${k}`, inner)]));
}

/** A report, checked field by field; `maxSecond` bounds the second indexes to the run's length. */
export function parseReport(body: unknown, maxSecond: number): Report {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object') throw new ProtocolError('a report must be a JSON object');
  const L = COORDINATOR_LIMITS;
  if (!Array.isArray(b.seconds) || b.seconds.length > L.maxSeconds) throw new ProtocolError(`seconds must be an array of at most ${L.maxSeconds}`);
  const seconds = b.seconds.map((x: Record<string, unknown>, i: number): SecondDelta => {
    const s = count(x?.s, `seconds[${i}].s`);
    if (s > maxSecond) throw new ProtocolError(`seconds[${i}].s ${s} is past the run's last second ${maxSecond}`);
    if (typeof x.hist !== 'string' || x.hist.length > L.maxReportBytes || !/^[A-Za-z0-9+/=]*$/.test(x.hist)) throw new ProtocolError(`seconds[${i}].hist must be compressed base64`);
    return { s, hist: x.hist, completed: count(x.completed, `seconds[${i}].completed`), errors: count(x.errors, `seconds[${i}].errors`), timeouts: count(x.timeouts, `seconds[${i}].timeouts`) };
  });
  return {
    shard: count(b.shard, 'shard'),
    seq: count(b.seq, 'seq'),
    at_ms: count(b.at_ms, 'at_ms'),
    seconds,
    requests: nested(b.requests, 'requests', L.maxOperations, L.maxStatuses),
    findings: nested(b.findings, 'findings', L.maxRules, L.maxOperations),
    judged: count(b.judged, 'judged'),
    answers: count(b.answers, 'answers'),
    late_sends: count(b.late_sends, 'late_sends'),
  };
}

export function parseJoin(body: unknown): JoinRequest {
  const b = body as Partial<JoinRequest> | null;
  if (!b || typeof b !== 'object') throw new ProtocolError('a join must be a JSON object');
  if (b.version !== PROTOCOL_VERSION) throw new ProtocolError(`protocol version ${String(b.version)}; this coordinator speaks ${PROTOCOL_VERSION} (run the same baas-conform version everywhere)`);
  if (typeof b.plan_digest !== 'string' || b.plan_digest.length > 100) throw new ProtocolError('plan_digest must be a string');
  const s = b.shard;
  return { version: b.version, shard: { index: count(s?.index, 'shard.index'), total: count(s?.total, 'shard.total') }, plan_digest: b.plan_digest, machine: String(b.machine ?? '').slice(0, 128) };
}

// `load --coordinator URL --shard i/n`: a shard that joins its coordinator, starts when told, sends
// what it measured every interval (HDR deltas, requests by operation and status, findings by rule,
// late sends), stops when told, and still writes its own result. Its own abort_on_fail rules are
// the coordinator's to judge on the merged run; a lost coordinator leaves the shard to the plan's
// duration (bounded as ever), and its result says so.

import { hostname } from 'node:os';
import { Registry } from 'prom-client';
import { CoordinatorRefusedError } from '../../errors/index.ts';
import { maskSecrets } from '../../profile/index.ts';
import { encodeHistogram, newHistogram } from '../histogram.ts';
import type { LoadMetrics } from '../metrics.ts';
import { runLoad, type LoadOptions } from '../run.ts';
import { scenarioById } from '../scenarios.ts';
import type { ConformanceResult, LoadResult } from '../types.ts';
import type { Histogram } from 'hdr-histogram-js';
import { readPlan } from '../plan.ts';
import { COORDINATOR_LIMITS, PROTOCOL_VERSION, planDigest, type JoinAnswer, type Report, type ReportAnswer } from './protocol.ts';

export interface ShardLink {
  /** The coordinator's base URL (http://host:port). */
  url: string;
  /** The run token the coordinator printed (BAAS_RUN_TOKEN). */
  token: string;
  planDigest: string;
  /** Give up joining after this long (default 300 s): a shard never waits unbounded. */
  joinTimeoutMs?: number;
  /** Told when the shard joined, started, was stopped or lost its coordinator. */
  onEvent?: (line: string) => void;
}

type Second = { hist: Histogram; completed: number; errors: number; timeouts: number };

/** What the shard measured since its last report: filled by the engine's per-request hooks. */
class Deltas {
  seconds = new Map<number, Second>();
  requests: Record<string, Record<string, number>> = {};
  findings: Record<string, Record<string, number>> = {};
  private sent = { judged: 0, answers: 0, late: 0 };
  constructor(
    private readonly zero: number,
    private readonly isError: (status: number) => boolean,
  ) {}

  settled(op: string, status: number, us: number, kind: 'status' | 'timeout' | 'transport' | 'incomplete'): void {
    const key = kind === 'status' ? String(status) : kind === 'transport' ? 'transport_error' : kind;
    const byOp = (this.requests[op] ??= {});
    byOp[key] = (byOp[key] ?? 0) + 1;
    // The engine keeps unanswered requests out of its seconds too (they settle after the drain).
    if (kind === 'incomplete') return;
    const s = Math.floor((performance.now() - this.zero) / 1000);
    let b = this.seconds.get(s);
    if (!b) this.seconds.set(s, (b = { hist: newHistogram(), completed: 0, errors: 0, timeouts: 0 }));
    b.hist.recordValue(us);
    b.completed++;
    if (kind !== 'status' || this.isError(status)) b.errors++;
    if (kind === 'timeout') b.timeouts++;
  }

  finding(rule: string, op: string): void {
    const byRule = (this.findings[rule] ??= {});
    byRule[op] = (byRule[op] ?? 0) + 1;
  }

  /** Takes everything since the last report (cumulative judge and late figures become deltas). */
  take(shard: number, seq: number, conformance: ConformanceResult | undefined, late: number): Report {
    const seconds = [...this.seconds].sort(([a], [b]) => a - b).map(([s, b]) => ({ s, hist: encodeHistogram(b.hist), completed: b.completed, errors: b.errors, timeouts: b.timeouts }));
    const judged = conformance?.judged ?? 0;
    const answers = conformance?.answers ?? 0;
    const r: Report = { shard, seq, at_ms: Math.round(performance.now() - this.zero), seconds, requests: this.requests, findings: this.findings, judged: judged - this.sent.judged, answers: answers - this.sent.answers, late_sends: Math.max(0, late - this.sent.late) };
    this.sent = { judged, answers, late };
    this.seconds = new Map();
    this.requests = {};
    this.findings = {};
    return r;
  }
}

async function post<T>(url: string, token: string, body: unknown, timeoutMs: number): Promise<{ status: number; json: T & { error?: string } }> {
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs))) });
  const text = await res.text();
  let json = {} as T & { error?: string };
  try {
    json = JSON.parse(text);
  } catch {
    json = { error: text.slice(0, 200) } as T & { error?: string };
  }
  return { status: res.status, json };
}

/** Joins: retried while the coordinator is not up yet (pods start in any order), refused at once on 4xx. */
async function join(link: ShardLink, shard: { index: number; total: number }): Promise<JoinAnswer> {
  const deadline = performance.now() + (link.joinTimeoutMs ?? COORDINATOR_LIMITS.joinTimeoutMs);
  let last = '';
  for (let attempt = 0; attempt < 100_000 && performance.now() < deadline; attempt++) {
    try {
      const left = Math.max(1, deadline - performance.now());
      const { status, json } = await post<JoinAnswer>(`${link.url}/v1/join`, link.token, { version: PROTOCOL_VERSION, shard, plan_digest: link.planDigest, machine: hostname() }, left);
      if (status === 200) return json;
      if (status >= 400 && status < 500) throw new CoordinatorRefusedError(`${link.url} refused shard ${shard.index}/${shard.total}: ${json.error ?? `HTTP ${status}`}`);
      last = json.error ?? `HTTP ${status}`;
    } catch (err) {
      if (err instanceof CoordinatorRefusedError) throw err;
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, Math.min(1000, Math.max(0, deadline - performance.now()))));
  }
  throw new CoordinatorRefusedError(`shard ${shard.index}/${shard.total} could not join ${link.url} within ${Math.round((link.joinTimeoutMs ?? COORDINATOR_LIMITS.joinTimeoutMs) / 1000)} s (${last}); start \`baas-conform load coordinate\` first, check the URL and BAAS_RUN_TOKEN`);
}

/** A metrics sink that feeds the deltas, and the shard's own --metrics-port registry if it has one. */
function tap(deltas: Deltas, inner: LoadMetrics | undefined): LoadMetrics {
  return {
    registry: inner?.registry ?? new Registry(),
    live: inner?.live ?? { inFlight: 0, late: 0 },
    settled(op, status, us, kind) {
      deltas.settled(op, status, us, kind);
      inner?.settled(op, status, us, kind);
    },
    finding(rule, op) {
      deltas.finding(rule, op);
      inner?.finding(rule, op);
    },
  };
}

/** Runs `opts` as one shard of a coordinated run; the result is the shard's own, with notes on the coordination. */
export async function runCoordinatedShard(link: ShardLink, opts: LoadOptions, run: (o: LoadOptions) => Promise<LoadResult> = runLoad): Promise<LoadResult> {
  const shard = opts.shard ?? { index: 1, total: 1 };
  const url = link.url.replace(/\/+$/, '');
  const said = link.onEvent ?? (() => {});
  const ans = await join({ ...link, url }, shard);
  said(`shard ${shard.index}/${shard.total}: joined run ${ans.run_id}; starting in ${ans.start_in_ms} ms`);
  await new Promise((r) => setTimeout(r, Math.max(0, Math.min(ans.start_in_ms, 60_000))));
  const interval = Math.max(50, Math.min(ans.interval_ms, 60_000));
  const zero = performance.now();
  const parts = typeof opts.scenario === 'string' ? [opts.scenario] : opts.scenario.map((p) => p.id);
  const expected = new Set(parts.flatMap((id) => scenarioById(id)?.expectedNon2xx ?? []));
  const deltas = new Deltas(zero, (s) => !(s >= 200 && s < 300) && !expected.has(s));
  const metrics = tap(deltas, opts.metrics);
  let conformance: (() => ConformanceResult) | undefined;
  const stop = new AbortController();
  const notes: string[] = [];
  let seq = 0;
  let failures = 0;
  let lost: string | undefined;
  let stopped: string | undefined;
  let inFlight: Promise<void> | undefined;
  // Reports not yet acknowledged are sent again, in order (the coordinator ignores a seq it already
  // added): a slow answer loses nothing from the live view.
  const pending: Report[] = [];
  const send = async (): Promise<void> => {
    if (lost) return;
    pending.push(deltas.take(shard.index, ++seq, conformance?.(), metrics.live.late));
    try {
      while (pending.length) {
        const { status, json } = await post<ReportAnswer>(`${url}/v1/report`, link.token, pending[0], Math.max(2 * interval, 5000));
        if (status !== 200) throw new Error(json.error ?? `HTTP ${status}`);
        pending.shift();
        failures = 0;
        if (json.stop && !stopped) {
          stopped = json.stop;
          said(`shard ${shard.index}/${shard.total}: stopped by the coordinator: ${json.stop}`);
          stop.abort(`coordinator: ${json.stop}`);
        }
      }
    } catch (err) {
      // What the reports carry is in the shard's own result still; only the live view waits for them.
      if (++failures >= COORDINATOR_LIMITS.lostAfterFailures) {
        lost = `coordinator ${url} lost at ${((performance.now() - zero) / 1000).toFixed(1)} s (${failures} reports in a row failed: ${(err as Error).message}); this shard kept to the plan's duration without it`;
        said(`shard ${shard.index}/${shard.total}: ${lost}`);
      }
    }
  };
  const timer = setInterval(() => {
    if (!inFlight) inFlight = send().finally(() => (inFlight = undefined));
  }, interval);
  let result: LoadResult;
  try {
    const thresholds = opts.thresholds ? { ...opts.thresholds, ...(opts.thresholds.rules ? { rules: opts.thresholds.rules.map(({ abort_on_fail: _a, grace_s: _g, ...r }) => r) } : {}) } : undefined;
    result = await run({
      ...opts,
      ...(thresholds ? { thresholds } : {}),
      metrics,
      onJudge: (c) => {
        conformance = c;
        opts.onJudge?.(c);
      },
      signal: opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal,
    });
  } finally {
    clearInterval(timer);
    await inFlight;
  }
  await send(); // the tail: what settled since the last tick
  notes.push(`coordinated: shard ${shard.index}/${shard.total} of run ${ans.run_id} (${url}), ${seq} reports every ${interval} ms; abort_on_fail rules were judged by the coordinator on the merged run`);
  if (stopped) notes.push(`stopped by the coordinator: ${stopped}`);
  if (lost) notes.push(lost);
  const out = { ...result, notes: [...result.notes, ...notes] };
  if (!lost) {
    try {
      // As `load --out` writes it: secrets of the profile masked.
      const { status, json } = await post<{ ok: boolean }>(`${url}/v1/final`, link.token, JSON.parse(maskSecrets(JSON.stringify(out), opts.profile)), 30_000);
      if (status !== 200) out.notes.push(`the coordinator refused this result: ${json.error ?? `HTTP ${status}`}`);
    } catch (err) {
      out.notes.push(`coordinator ${url} lost at the end: the result could not be sent (${(err as Error).message}); merge it with load merge`);
    }
  }
  return out;
}

/** `load --coordinator URL`: a runner with runLoad's signature that runs as a shard of the plan at `planPath`. */
export async function coordinatedShardRunner(link: Omit<ShardLink, 'planDigest'> & { planPath: string; planName?: string }, run: (o: LoadOptions) => Promise<LoadResult> = runLoad): Promise<(o: LoadOptions) => Promise<LoadResult>> {
  const { planPath, planName, ...rest } = link;
  const planDigest_ = planDigest(await readPlan(planPath, planName ?? planPath));
  return (o) => runCoordinatedShard({ ...rest, planDigest: planDigest_ }, o, run);
}

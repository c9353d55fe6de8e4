// The journey scenario's traffic: each step is one request of a model operation, sent, timed from
// its own send, judged like any other load answer and counted per operation and per second. A
// non-2xx answer, a body that is not JSON or a transport failure ends the journey at that step
// (StepFailed names it). Requests still pending when the drain ends are reported as incomplete with
// their age, so nothing in flight vanishes.

import { request } from 'undici';
import type { WebhookReceiver } from '../checks/types.ts';
import { operationAuthOf, refusesCredentials } from '../client/index.ts';
import type { OperationId } from '../model/index.ts';
import { applyRequestTemplate } from '../profile/index.ts';
import { countUnanswered, newOpStats, type EngineOptions, type Incomplete, type OpStats } from './engine-types.ts';
import { newHistogram, toMicros } from './histogram.ts';
import type { LoadJudge } from './judge.ts';
import { operation, targetPath, type SetupHttp } from './setup.ts';
import type { Timeline } from './timeline.ts';

/** Ends a journey; the message is the step it broke at ('stopped' once the run is over). */
export class StepFailed extends Error {}

/**
 * The step name with the cause, when an operation whose authentication the spec does not show was
 * refused for its credentials: the journeys broke on a profile setting, not on the target.
 */
function refusedForCredentials(s: SetupHttp, op: OperationId, status: number, text: string): string | undefined {
  const auth = operationAuthOf(s.model, s.profile, op);
  if (!auth) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!refusesCredentials(s.model, { status, json })) return undefined;
  const key = `profile.operation_auth.${op}`;
  return `${op} (refused for its credentials, ${s.profile.operation_auth?.[op] ? `check ${key}` : `${key} is not set`})`;
}

const is2xx = (s: number) => s >= 200 && s < 300;

type SettledKind = 'status' | 'timeout' | 'transport' | 'incomplete';

export interface TrafficOptions {
  http: SetupHttp;
  timeline: Timeline;
  /** performance.now() at the start of the run: timeline seconds count from it. */
  t0: number;
  judge?: LoadJudge;
  onSettled?: (op: string, status: number, us: number, kind: SettledKind) => void;
  live?: EngineOptions['live'];
}

export class JourneyTraffic {
  readonly overall = newHistogram();
  readonly ops = new Map<string, OpStats>();
  sent = 0;
  completed = 0;
  errors = 0;
  inFlight = 0;
  maxInFlight = 0;
  /** After the drain nothing more is sent, and what is still in flight is aborted and reported. */
  readonly stop = new AbortController();
  private readonly pending = new Set<{ op: string; start: number }>();

  constructor(private readonly o: TrafficOptions) {}

  private stat(op: string): OpStats {
    let st = this.ops.get(op);
    if (!st) this.ops.set(op, (st = newOpStats()));
    return st;
  }

  private record(op: string, start: number, kind: Exclude<SettledKind, 'incomplete'>, status = 0, errKind = ''): void {
    const now = performance.now();
    const us = toMicros(now - start);
    const st = this.stat(op);
    this.overall.recordValue(us);
    st.hist.recordValue(us);
    const b = this.o.timeline.at((now - this.o.t0) / 1000);
    b.hist.recordValue(us);
    b.completed++;
    this.completed++;
    this.o.onSettled?.(op, status, us, kind);
    if (kind === 'status') {
      st.status[status] = (st.status[status] ?? 0) + 1;
      if (is2xx(status)) b.ok++;
      else b.errors++;
      if (status === 429) b.s429++;
    } else {
      countUnanswered(st, b, kind, errKind);
    }
    if (kind !== 'status' || !is2xx(status)) this.errors++;
  }

  private setInFlight(n: number): void {
    this.inFlight = n;
    if (this.o.live) this.o.live.inFlight = n;
  }

  /** One step: sends, records, judges, and returns the parsed answer; a failed step throws StepFailed. */
  async step(op: OperationId, headers: Record<string, string>, body?: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const s = this.o.http;
    const { stop } = this;
    const where = operation(s, op);
    const server = s.model.operation(op).server;
    const origin = server === 'pci' ? s.profile.pci_url : s.profile.base_url;
    const tpl = s.profile.request_templates?.[op];
    // The step's body carries the values of earlier steps (card_token, estimation_id): a template's "{{name}}" takes them, as in run.
    const b = body && tpl ? applyRequestTemplate(tpl, body, body) : body;
    const text = b === undefined ? undefined : JSON.stringify(b);
    const path = server === 'pci' ? where.path : targetPath(s.profile, where.path);
    if (stop.signal.aborted) throw new StepFailed('stopped');
    this.sent++;
    this.o.timeline.at((performance.now() - this.o.t0) / 1000).sent++;
    const start = performance.now();
    const mine = { op, start };
    this.pending.add(mine);
    this.setInFlight(this.inFlight + 1);
    if (this.inFlight > this.maxInFlight) this.maxInFlight = this.inFlight;
    try {
      const res = await request(new URL(path, origin!), {
        method: where.method as 'POST',
        headers: text === undefined ? headers : { 'content-type': 'application/json', ...headers },
        ...(text !== undefined ? { body: text } : {}),
        signal: AbortSignal.any([AbortSignal.timeout(s.timeoutMs), stop.signal]),
        ...(s.dispatcher ? { dispatcher: s.dispatcher } : {}),
      });
      const answer = await res.body.text();
      this.record(op, start, 'status', res.statusCode);
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h[k] = v;
      if (this.o.judge?.wants()) this.o.judge.judge({ op, method: where.method, path, ...(text !== undefined ? { body: text } : {}) }, res.statusCode, h, answer);
      if (!is2xx(res.statusCode)) throw new StepFailed(refusedForCredentials(s, op, res.statusCode, answer) ?? op);
      try {
        return answer ? JSON.parse(answer) : undefined;
      } catch {
        throw new StepFailed(op);
      }
    } catch (err) {
      if (err instanceof StepFailed || stop.signal.aborted) throw err instanceof StepFailed ? err : new StepFailed('stopped');
      const timedOut = performance.now() - start >= s.timeoutMs || (err as Error).name === 'TimeoutError';
      this.record(op, start, timedOut ? 'timeout' : 'transport', 0, (err as { code?: string }).code ?? (err as Error).name);
      throw new StepFailed(op);
    } finally {
      this.setInFlight(this.inFlight - 1);
      this.pending.delete(mine);
    }
  }

  /** The webhook step `op`: from now until `receiver` gets a delivery to `path` that `matches`, within `timeoutMs`. */
  async delivery(op: string, receiver: WebhookReceiver, path: string, matches: (body: unknown) => boolean, timeoutMs: number): Promise<void> {
    const start = performance.now();
    this.sent++;
    const mine = { op, start };
    this.pending.add(mine);
    const got = await receiver.waitFor(path, matches, timeoutMs, this.stop.signal);
    this.pending.delete(mine);
    if (this.stop.signal.aborted) throw new StepFailed('stopped');
    if (got) this.record(op, start, 'status', 200);
    else {
      this.record(op, start, 'timeout');
      throw new StepFailed(op);
    }
  }

  /** Reports what is still pending at `end` as incomplete (latency at least its age), then aborts it. */
  settlePending(end: number): Incomplete[] {
    const incomplete = [...this.pending].map((p) => ({ op: p.op, age_ms: Math.round(end - p.start) }));
    for (const p of this.pending) {
      const st = this.stat(p.op);
      st.incomplete++;
      st.hist.recordValue(toMicros(end - p.start));
      this.overall.recordValue(toMicros(end - p.start));
      this.o.onSettled?.(p.op, 0, toMicros(end - p.start), 'incomplete');
    }
    this.stop.abort();
    return incomplete;
  }
}

// The load generator: our HTTP/1.1 connections (transport.ts) driven directly, in two models.
// - closed: N workers, each sends its next request when the previous one settles (autocannon's model).
// - open:   sends follow an arrival schedule fixed in advance (schedule.ts) and never wait for
//           responses; latency runs from the intended send time, so a send that waits for a free
//           connection is late and its lateness is charged to its latency (wrk2, k6 arrival-rate).
// Every request either completes, times out at the budget (aborted, recorded at >= the budget) or,
// if it is still unsettled when the drain ends, is reported as incomplete with its age. Nothing in
// flight vanishes. autocannon is not used: its stop() destroys its sockets and drops the requests in
// flight, and its overallRate is a per-second quota on closed connections, not an arrival schedule.

import { ArrivalQueue } from './fifo.ts';
import { newHistogram, toMicros } from './histogram.ts';
import { arrivalTimes, shapeDurationMs, shapeMax, valueAt } from './schedule.ts';
import { progressTicker, sendPhase, type Stopped } from './send-phase.ts';
import { Timeline } from './timeline.ts';
import { Handler, TimeoutAbort, type Hooks, type InFlight } from './dispatch.ts';
import { Connections } from './transport.ts';
import { countUnanswered, newOpStats, type EngineOptions, type EngineRequest, type EngineRun, type Incomplete, type OpStats } from './engine-types.ts';

export { newOpStats, type EngineOptions, type EngineRequest, type EngineRun, type Incomplete, type OpStats, type Progress } from './engine-types.ts';

export async function runEngine(o: EngineOptions): Promise<EngineRun> {
  const openModel = o.model === 'open';
  const connections = openModel ? o.maxConnections : Math.max(1, Math.ceil(shapeMax(o.shape)));
  const pool = new Connections(o.origin, connections, o.secureContext);
  const sendMs = shapeDurationMs(o.shape);
  const drainMs = o.drainMs ?? o.timeoutMs;
  // The run's latencies are those of its operations: the overall histogram is their sum, made when read
  // (a progress tick, the end), so each answer is recorded in two histograms (its operation, its second), not three.
  const ops = new Map<string, OpStats>();
  const overallNow = () => {
    const h = newHistogram();
    for (const s of ops.values()) h.add(s.hist);
    return h;
  };
  const timeline = new Timeline(Math.ceil((sendMs + drainMs) / 1000) + 2);
  const inflight = new Set<InFlight>();
  const queue = new ArrivalQueue<EngineRequest>();
  const late = { count: 0, max_ms: 0, total_ms: 0, waited_for_connection: 0 };
  // Queue entries are numbered (queue.headSeq, queue.lastSeq); every entry up to blockedUpTo was still queued after a pump found no free connection.
  let blockedUpTo = 0;
  let sent = 0;
  let completed = 0;
  let errors = 0;
  let maxInFlight = 0;
  let sending = true;
  let activeWorkers = 0;
  const live = o.live;
  // Read by the arrival tick once sending ends, so it is declared before the tick that reads it.
  let stopped: Stopped | undefined = undefined;
  const startedAt = new Date();
  const t0 = performance.now();
  const stat = (op: string) => {
    let s = ops.get(op);
    if (!s) ops.set(op, (s = newOpStats()));
    return s;
  };
  let settleDrain: () => void = () => {};
  const drained = new Promise<void>((r) => (settleDrain = r));

  // The second of the last completion and its bucket: most completions fall in the same second as the one before.
  let second = -1;
  let bucket = timeline.at(0);
  const record = (r: InFlight, now: number, kind: 'status' | 'timeout' | 'transport', status = 0, errKind = '') => {
    const us = toMicros(now - r.start);
    const s = stat(r.op);
    o.onSettled?.(r.op, status, us, kind);
    o.onSample?.(us);
    s.hist.recordValue(us);
    const sec = Math.floor((now - t0) / 1000);
    if (sec !== second) {
      second = sec;
      bucket = timeline.at(sec);
    }
    const b = bucket;
    b.hist.recordValue(us);
    b.completed++;
    completed++;
    if (kind === 'status') {
      s.status[status] = (s.status[status] ?? 0) + 1;
      if (status >= 200 && status < 300) b.ok++;
      if (status === 429) b.s429++;
      if (o.isError(status)) {
        b.errors++;
        errors++;
      }
    } else {
      countUnanswered(s, b, kind, errKind);
      errors++;
    }
  };

  const settled = (r: InFlight, now: number) => {
    inflight.delete(r);
    if (live) live.inFlight = inflight.size;
    if (openModel) pump();
    else if (sending && workerWanted(now)) issue(o.next(), now);
    else activeWorkers--;
    if (!sending && inflight.size === 0 && queue.length === 0) settleDrain();
  };

  const hooks: Hooks = {
    bodyFor: o.bodyFor && o.onBody ? o.bodyFor : undefined,
    complete(h, status) {
      const r = h;
      if (r.done) return;
      r.done = true;
      const now = performance.now();
      record(r, now, 'status', status);
      if (h.flags) o.onBody!(r.req as EngineRequest, status, h.head, h.text(), h.flags);
      settled(r, now);
    },
    error(h, err) {
      const r = h;
      if (r.done) return;
      r.done = true;
      const now = performance.now();
      record(r, now, 'transport', 0, err.code ?? err.message);
      settled(r, now);
    },
  };

  const issue = (req: EngineRequest, start: number) => {
    sent++;
    if (!openModel) timeline.at((start - t0) / 1000).sent++;
    const r = new Handler(req, start, hooks);
    inflight.add(r);
    if (live) live.inFlight = inflight.size;
    if (inflight.size > maxInFlight) maxInFlight = inflight.size;
    pool.dispatch(req, r);
  };

  // Open model: send what the schedule says is due, as long as a connection is free.
  const pump = () => {
    while (queue.length && inflight.size < connections) {
      const seq = queue.headSeq;
      const at = queue.peekAt();
      const req = queue.shift();
      const now = performance.now();
      const lateMs = now - at;
      if (lateMs > 1) {
        late.count++;
        if (live) live.late = late.count;
        late.total_ms += lateMs;
        if (lateMs > late.max_ms) late.max_ms = lateMs;
        if (seq <= blockedUpTo) late.waited_for_connection++;
      }
      issue(req, at);
    }
    if (queue.length) blockedUpTo = queue.lastSeq;
  };
  const workerWanted = (now: number) => activeWorkers <= Math.round(valueAt(o.shape, now - t0)) && sent < o.maxRequests;

  // Timeouts: in-flight requests and queued sends are in start order, so the sweep stops at the first young one.
  const sweepEvery = Math.max(10, Math.min(100, o.timeoutMs / 20));
  const sweep = () => {
    const now = performance.now();
    for (const r of inflight) {
      if (now - r.start < o.timeoutMs) break;
      r.done = true;
      record(r, now, 'timeout');
      r.abort?.(new TimeoutAbort('timeout'));
      settled(r, now);
    }
    while (queue.length && now - queue.peekAt() >= o.timeoutMs) {
      const at = queue.peekAt();
      const r: InFlight = { op: queue.shift().op, start: at, done: true };
      sent++;
      record(r, now, 'timeout');
    }
    if (openModel) pump();
    if (!sending && inflight.size === 0 && queue.length === 0) settleDrain();
  };
  const sweeper = setInterval(sweep, sweepEvery);

  // Closed model: start or retire workers as the connection shape moves.
  const control = () => {
    if (!sending || openModel) return;
    while (activeWorkers < Math.round(valueAt(o.shape, performance.now() - t0)) && sent < o.maxRequests) {
      activeWorkers++;
      issue(o.next(), performance.now());
    }
  };

  // Open model: walk the arrival schedule on a timer; each due arrival keeps its intended time.
  const shift = o.arrivalShiftMs ?? 0;
  const shifted = function* (g: Generator<number>) {
    for (const v of g) yield Math.max(0, v + shift);
  };
  const times = openModel ? arrivalTimes(o.shape, o.maxRequests, o.arrivals) : undefined;
  const arrivals = times && shift ? shifted(times) : times;
  let nextAt = arrivals?.next();
  let scheduler: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now() - t0;
    while (nextAt && !nextAt.done && (nextAt.value <= now || (!sending && !stopped))) {
      timeline.at(nextAt.value / 1000).sent++;
      queue.push(o.next(), t0 + nextAt.value);
      nextAt = arrivals!.next();
    }
    pump();
    if (sending && nextAt && !nextAt.done) scheduler = setTimeout(tick, Math.max(0, Math.min(5, nextAt.value - (performance.now() - t0))));
  };

  const progress = progressTicker(o.onProgress, o.progressEveryMs ?? 1000, t0, overallNow, () => ({ completed, errors, inFlight: inflight.size, queued: queue.length }));

  const controller = openModel ? undefined : setInterval(control, 50);
  if (openModel) tick();
  else control();

  stopped = await sendPhase(sendMs, t0, timeline, o.stopWhen);
  // Timers may fire a little early against performance.now(): the schedule's last arrival is at sendMs.
  while (!stopped && performance.now() - t0 < sendMs) await new Promise<void>((r) => setTimeout(r, 1));
  sending = false;
  clearTimeout(scheduler);
  clearInterval(controller);
  if (openModel) tick(); // arrivals due by the end are still sent (late), never dropped; after a stop, none beyond it
  if (inflight.size === 0 && queue.length === 0) settleDrain();
  let drainTimer: NodeJS.Timeout | undefined;
  await Promise.race([drained, new Promise<void>((r) => (drainTimer = setTimeout(r, drainMs + 2 * sweepEvery)))]);
  clearTimeout(drainTimer);
  clearInterval(sweeper);
  // A late timer must not turn a timeout into "incomplete": whatever is past the budget is a timeout.
  sweep();
  clearInterval(progress);
  const end = performance.now();
  const incomplete: Incomplete[] = [];
  for (const r of [...inflight, ...queue.toArray().map((q) => ({ op: q.req.op, start: q.at, done: false }) as InFlight)]) {
    r.done = true;
    r.abort?.(new TimeoutAbort('incomplete'));
    incomplete.push({ op: r.op, age_ms: Math.round(end - r.start) });
    stat(r.op).incomplete++;
    // Unanswered: its latency is at least its age; record that lower bound rather than nothing.
    o.onSample?.(toMicros(end - r.start));
    o.onSettled?.(r.op, 0, toMicros(end - r.start), 'incomplete');
    stat(r.op).hist.recordValue(toMicros(end - r.start));
  }
  await pool.destroy().catch(() => {});
  if (live) live.inFlight = 0;
  return { started_at: startedAt, wall_ms: end - t0, send_ms: stopped ? stopped.at_s * 1000 : sendMs, overall: overallNow(), ops, timeline, sent, late, incomplete, max_in_flight: maxInFlight, ...(stopped ? { stopped } : {}) };
}

// `load coordinate --shards N --plan plan.yaml`: waits for the N shards of its run, starts them
// together, adds what they send every interval into one live run, judges the plan's thresholds on
// it (windowed ones included) and, on an abort_on_fail breach after its grace, tells every shard to
// stop. At the end the merged result is `load merge` of the shards' own results, so a coordinated
// run, a merge of shard files and a single node on the same samples give one verdict. A shard that
// never sends its result makes that verdict inconclusive, never a pass. Every wait is bounded.

import { randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ConfigError, conclude, inconclusive, type Conclusion } from '../../errors/index.ts';
import { LOAD_DEFAULTS } from '../../options/defaults.ts';
import { loadModel, type Model } from '../../model/index.ts';
import { summarise, type LatencySummary } from '../histogram.ts';
import { writeLoadReport } from '../html.ts';
import { mergeResults, resultValidator } from '../merge.ts';
import { planOptions, readPlan, type LoadPlan } from '../plan.ts';
import type { LoadResult, Thresholds } from '../types.ts';
import { evaluate } from '../verdict.ts';
import { LiveRun } from './live.ts';
import { COORDINATOR_LIMITS, parseJoin, parseReport, planDigest } from './protocol.ts';
import { Refusal, answer, serveCoordinator, type CoordinatorServer } from './server.ts';

export interface CoordinateOptions {
  shards: number;
  plan: LoadPlan;
  /** The plan's file name (messages). */
  planFile: string;
  model?: Model;
  port?: number;
  host?: string;
  /** How often shards report (default 1000 ms). */
  intervalMs?: number;
  /** The run token shards present (default: a fresh random one). */
  token?: string;
  /** Give up waiting for every shard to join after this long (default 300 s). */
  joinTimeoutMs?: number;
  /** Where the merged load.json and load.html go (none when absent). */
  reportDir?: string;
  onEvent?: (line: string) => void;
  /** Aborting stops every shard (Ctrl-C at the coordinator). */
  signal?: AbortSignal;
}

export interface ShardSummary {
  shard: string;
  machine: string | null;
  joined: boolean;
  reports: number;
  /** The shard's clock (s from its start) at its last report. */
  last_report_s: number | null;
  /** Its first report at or past the grace of the abort_on_fail rules. */
  first_report_after_grace: number | null;
  /** The report whose answer told it to stop. */
  stopped_on_report: number | null;
  final: boolean;
}

export interface CoordinatedRun {
  run_id: string;
  plan_digest: string;
  /** The merged result (load merge of the shards' own results); null when no shard sent one. */
  result: LoadResult | null;
  outcome: Conclusion;
  shards: ShardSummary[];
  abort?: { at_s: number; reason: string };
  /** The merged run as streamed (HDR deltas): what the live thresholds and /metrics saw. */
  live: { latency_ms: LatencySummary; requests: number; judged: number; findings: number; late_sends: number };
  files?: { json: string; html: string };
}

export interface Coordinator {
  url: string;
  token: string;
  run_id: string;
  plan_digest: string;
  done: Promise<CoordinatedRun>;
  close(): Promise<void>;
}

/** How long past the run's length shards that still report are waited for. */
const OVERTIME_MS = 600_000;

type Shard = ShardSummary & { index: number; lastAt: number; lastSeq: number; result?: LoadResult; hold?: ServerResponse };

/** One result with the coordinator's thresholds, or the merge of several (as `load merge`). */
function mergeFinals(finals: LoadResult[], thresholds: Thresholds): LoadResult {
  if (finals.length > 1) return mergeResults(finals, thresholds);
  return { ...finals[0], thresholds, verdict: evaluate(finals[0], thresholds) };
}

export async function startCoordinator(o: CoordinateOptions): Promise<Coordinator> {
  const n = o.shards;
  if (!Number.isInteger(n) || n < 1 || n > COORDINATOR_LIMITS.maxShards) throw new ConfigError(`load coordinate: --shards must be an integer 1..${COORDINATOR_LIMITS.maxShards}`);
  const interval = o.intervalMs ?? 1000;
  if (!(interval >= 50 && interval <= 60_000)) throw new ConfigError('load coordinate: --interval must be 50..60000 ms');
  const model = o.model ?? (await loadModel());
  const opts = planOptions(o.plan, model, o.planFile);
  const thresholds = opts.thresholds ?? {};
  const rules = thresholds.rules ?? [];
  const timeoutMs = opts.timeoutMs ?? model.requestTimeoutMs();
  const sendS = opts.stages?.length ? opts.stages.reduce((s, x) => s + x.duration_s, 0) : (opts.durationSec ?? LOAD_DEFAULTS.durationSec);
  // The longest a shard may take from the start: sending, the drain, one request budget past it, and the reports.
  const runMs = sendS * 1000 + (opts.drainMs ?? timeoutMs) + timeoutMs + 4 * interval + 15_000;
  const maxSecond = Math.ceil(runMs / 1000) + 5;
  const maxReports = Math.ceil((runMs + OVERTIME_MS) / interval) * COORDINATOR_LIMITS.reportSlack + 10;
  const grace = Math.min(...rules.filter((r) => r.abort_on_fail).map((r) => r.grace_s ?? 0), Infinity);
  const token = o.token ?? randomBytes(24).toString('base64url');
  const run_id = randomUUID();
  const plan_digest = planDigest(o.plan);
  const said = o.onEvent ?? (() => {});
  const shards: Shard[] = Array.from({ length: n }, (_, i) => ({ index: i + 1, shard: `${i + 1}/${n}`, machine: null, joined: false, reports: 0, last_report_s: null, first_report_after_grace: null, stopped_on_report: null, final: false, lastAt: 0, lastSeq: 0 }));
  let phase: 'joining' | 'running' | 'done' = 'joining';
  let startAt = 0;
  let abort: CoordinatedRun['abort'];
  const elapsedMs = () => (phase === 'joining' ? 0 : performance.now() - startAt);
  // Silent: no report for 5 intervals (10 s at least: a shard's setup or a busy machine is not a death).
  const silent = (s: Shard) => performance.now() - s.lastAt > Math.max(COORDINATOR_LIMITS.silentIntervals * interval, 10_000);
  const live = new LiveRun(maxSecond, rules, () => ({ joined: shards.filter((s) => s.joined).length, reporting: shards.filter((s) => s.reports && !s.final && !silent(s)).length, silent: shards.filter((s) => s.joined && !s.final && silent(s)).length, final: shards.filter((s) => s.final).length }), elapsedMs);

  let finish: (r: CoordinatedRun) => void = () => {};
  let fail: (err: unknown) => void = () => {};
  const done = new Promise<CoordinatedRun>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const joined = (index: unknown): Shard => {
    const s = typeof index === 'number' ? shards[index - 1] : undefined;
    if (!s?.joined) throw new Refusal(409, `shard ${String(index)} has not joined this run`);
    return s;
  };
  const stopNow = (reason: string) => {
    if (abort) return;
    abort = { at_s: Math.round(elapsedMs()) / 1000, reason };
    said(`stopping every shard: ${reason}`);
  };

  const server: CoordinatorServer = await serveCoordinator(
    token,
    {
      '/v1/join': {
        maxBytes: COORDINATOR_LIMITS.maxReportBytes,
        handle(body, res) {
          const j = parseJoin(body);
          if (j.plan_digest !== plan_digest) throw new Refusal(409, `plan digest ${j.plan_digest} is not this run's ${plan_digest}: every shard must run the coordinator's plan, unchanged`);
          if (j.shard.total !== n || j.shard.index < 1 || j.shard.index > n) throw new Refusal(409, `shard ${j.shard.index}/${j.shard.total} is not one of this run's ${n} shards`);
          const s = shards[j.shard.index - 1];
          if (phase !== 'joining') throw new Refusal(409, s.joined ? `shard ${s.shard} has already joined (two pods with one index?)` : 'the run has started; a late shard would not be concurrent with the others');
          // Before the start a shard may join again (its held join timed out or its connection broke): the newer join holds.
          if (s.hold) answer(s.hold, 409, { error: `shard ${s.shard}: replaced by a newer join of the same shard` });
          Object.assign(s, { joined: true, machine: j.machine || null, hold: res, lastAt: performance.now() });
          said(`shard ${s.shard} joined (${shards.filter((x) => x.joined).length}/${n})`);
          if (shards.every((x) => x.joined)) {
            const startIn = Math.max(500, interval);
            startAt = performance.now() + startIn;
            phase = 'running';
            for (const x of shards) {
              x.lastAt = startAt;
              answer(x.hold!, 200, { start_in_ms: startIn, interval_ms: interval, run_id });
              delete x.hold;
            }
            said(`every shard joined: the run starts in ${startIn} ms`);
          }
          return undefined;
        },
      },
      '/v1/report': {
        maxBytes: COORDINATOR_LIMITS.maxReportBytes,
        handle(body) {
          if (phase === 'joining') throw new Refusal(409, 'the run has not started');
          const s = joined((body as { shard?: unknown } | null)?.shard);
          if (s.reports >= maxReports) throw new Refusal(429, `shard ${s.shard} sent more than ${maxReports} reports`);
          const r = parseReport(body, maxSecond);
          // A report sent again (its answer was lost): already added.
          if (r.seq <= s.lastSeq) return { status: 200, body: abort ? { stop: abort.reason } : {} };
          s.lastSeq = r.seq;
          if (++s.reports === 1) said(`shard ${s.shard}: first report`);
          s.lastAt = performance.now();
          s.last_report_s = r.at_ms / 1000;
          if (s.first_report_after_grace === null && r.at_ms >= grace * 1000) s.first_report_after_grace = s.reports;
          live.apply(r);
          if (abort && s.stopped_on_report === null) s.stopped_on_report = s.reports;
          return { status: 200, body: abort ? { stop: abort.reason } : {} };
        },
      },
      '/v1/final': {
        maxBytes: COORDINATOR_LIMITS.maxFinalBytes,
        handle(body) {
          const r = body as LoadResult;
          const s = joined(r?.config?.shard?.index);
          if (r.config.shard?.count !== n) throw new Refusal(409, `the result is of a split into ${r.config.shard?.count}, not ${n}`);
          if (s.final) throw new Refusal(409, `shard ${s.shard} already sent its result`);
          void resultValidator().then((validate) => {
            if (!validate(r)) {
              said(`shard ${s.shard}: its result is not a load result (${validate.errors?.[0]?.instancePath} ${validate.errors?.[0]?.message}); left out`);
              return;
            }
            s.result = r;
            s.final = true;
            s.lastAt = performance.now();
            said(`shard ${s.shard}: result received (${r.counts.attempts} requests)`);
            maybeEnd();
          });
          return { status: 200, body: { ok: true } };
        },
      },
    },
    live.registry,
    o.port ?? 0,
    o.host ?? '127.0.0.1',
  );

  const joinDeadline = performance.now() + (o.joinTimeoutMs ?? COORDINATOR_LIMITS.joinTimeoutMs);
  const maybeEnd = (): void => {
    if (phase === 'done') return;
    const now = performance.now();
    if (phase === 'joining') {
      if (now >= joinDeadline) void end(`not every shard joined within ${Math.round((o.joinTimeoutMs ?? COORDINATOR_LIMITS.joinTimeoutMs) / 1000)} s`);
      return;
    }
    // Past the run's length a shard still reporting is still working (read-backs of consistency, a
    // slow drain): it gets up to OVERTIME_MS more; a silent one does not.
    if (now >= startAt + runMs + OVERTIME_MS || (now >= startAt + runMs && shards.every((s) => s.final || silent(s)))) return void end('the run outlasted its longest possible length');
    // Every shard has its result in; or some have, and the rest fell silent (a dead pod, a lost link).
    if (shards.every((s) => s.final)) return void end(undefined);
    if (shards.some((s) => s.final) && shards.every((s) => s.final || silent(s))) void end('some shards fell silent');
  };
  // Judged four times an interval (a single node judges every 250 ms of a 1 s interval), not per
  // message: the answer to every report carries the latest decision, so a stop reaches each shard
  // on its next report.
  const judging = setInterval(() => {
    if (phase !== 'running' || abort || performance.now() < startAt) return;
    const why = o.signal?.aborted ? 'the coordinator was cancelled (Ctrl-C)' : live.abortReason();
    if (why) stopNow(why);
  }, Math.max(25, interval / 4));
  const ticker = setInterval(maybeEnd, interval);

  const end = async (why: string | undefined): Promise<void> => {
    if (phase === 'done') return;
    phase = 'done';
    clearInterval(ticker);
    clearInterval(judging);
    for (const s of shards) if (s.hold) answer(s.hold, 503, { error: `the run ended before it started: ${why}` });
    const finals = shards.flatMap((s) => (s.result ? [s.result] : []));
    let result = finals.length ? mergeFinals(finals, thresholds) : null;
    if (result && abort && !result.aborted) result = { ...result, aborted: abort, verdict: evaluate({ ...result, aborted: abort }, thresholds) };
    const missing = shards.filter((s) => !s.final).map((s) => inconclusive(`shard ${s.shard}`, !s.joined ? 'it never joined' : !s.reports ? 'it joined and never reported' : `its result never arrived (last report at ${s.last_report_s ?? 0} s: the shard died or lost the coordinator)`));
    if (result) {
      const v = result.verdict;
      const unjudged = [...(v.inconclusive ?? []), ...missing];
      const outcome = conclude(v.reasons.length > 0, unjudged.length > 0);
      const summary = shards.map((s) => `${s.shard}: ${s.reports} reports${s.stopped_on_report !== null ? `, stopped on report ${s.stopped_on_report}` : ''}${s.final ? '' : ', no result'}`).join('; ');
      result = {
        ...result,
        notes: [...result.notes, `coordinated run ${run_id}: ${n} shards started together, reporting every ${interval} ms (${summary}); thresholds were judged live on the merged HDR deltas, and this result is load merge of the shards' own results.`],
        verdict: { ...v, pass: outcome === 'pass', outcome, reasons: v.reasons, ...(unjudged.length ? { inconclusive: unjudged } : {}) },
      };
    }
    const out: CoordinatedRun = {
      run_id,
      plan_digest,
      result,
      outcome: result?.verdict.outcome ?? 'inconclusive',
      shards: shards.map(({ index: _i, lastAt: _l, lastSeq: _q, result: _r, hold: _h, ...s }) => s),
      ...(abort ? { abort } : {}),
      live: { latency_ms: summarise(live.overall), requests: live.requestTotal(), judged: live.conformance.judged, findings: live.conformance.findings, late_sends: live.late },
    };
    if (!result) said(`no shard sent its result${why ? ` (${why})` : ''}: nothing to merge, the run is inconclusive`);
    try {
      if (result && o.reportDir) out.files = await writeLoadReport(o.reportDir, result);
      finish(out);
    } catch (err) {
      fail(err);
    }
  };

  said(`coordinator ${server.url}: run ${run_id}, plan ${plan_digest}, waiting for ${n} shards`);
  return {
    url: server.url,
    token,
    run_id,
    plan_digest,
    done,
    async close() {
      await end('closed');
      await server.close();
    },
  };
}

/** The whole coordinated run in one call (the CLI's): reads the plan, serves until the run ends, closes. */
export async function coordinate(o: Omit<CoordinateOptions, 'plan' | 'planFile'> & { planPath: string; planName?: string; onListening?: (c: Coordinator) => void }): Promise<CoordinatedRun> {
  const { planPath, planName, onListening, ...rest } = o;
  const c = await startCoordinator({ ...rest, plan: await readPlan(planPath, planName ?? planPath), planFile: planName ?? planPath });
  try {
    onListening?.(c);
    return await c.done;
  } finally {
    await c.close();
  }
}

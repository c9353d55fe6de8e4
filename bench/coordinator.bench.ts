// The load coordinator's cost per shard message (src/load/coordinator): what one report (one interval
// of one shard: an HDR delta per second, requests by operation and status, findings) costs it to
// check, add into the merged run and judge the plan's thresholds on (windowed ones re-evaluated over
// the whole run so far). Two figures: the in-process handling over a simulated 60 s run of 8 shards
// (a clock stepped by the bench, so the windows cover 60 s of data), and the HTTP round trip against
// a bare node:http server that reads and parses the same body: the difference is the overhead.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeHistogram, newHistogram } from '../src/load/histogram.ts';
import { parseRule } from '../src/load/plan.ts';
import { LiveRun } from '../src/load/coordinator/live.ts';
import { parseReport, planDigest, type Report } from '../src/load/coordinator/protocol.ts';
import { startCoordinator } from '../src/load/coordinator/index.ts';
import type { LoadPlan } from '../src/load/plan.ts';

const SHARDS = 8;
const SECONDS = 60;
const PER_SECOND = 250; // requests per shard per second (2000 req/s in all)
const TOKEN = 'bench-token-0123456789abcdef';

/** Deterministic latencies (us): mostly 1-5 ms, a tail to 200 ms. */
function report(shard: number, second: number): Report {
  const h = newHistogram();
  let x = (shard * 7919 + second * 104729) >>> 0;
  for (let i = 0; i < PER_SECOND; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    h.recordValue(1000 + (x % 4000) + (i % 97 === 0 ? 200_000 : 0));
  }
  return { shard, seq: second + 1, at_ms: (second + 1) * 1000, seconds: [{ s: second, hist: encodeHistogram(h), completed: PER_SECOND, errors: 0, timeouts: 0 }], requests: { getUserV1: { '200': PER_SECOND - 1, '503': 1 } }, findings: { 'ENDPOINT-RESPONSE-SCHEMA': { getUserV1: 1 } }, judged: PER_SECOND, answers: PER_SECOND, late_sends: 3 };
}

const RULES = ['p99 < 60000 over 10s', 'error_rate < 0.5 over 5s', 'p99 < 60000', 'conformance_errors < 1000000'].map((e) => ({ ...parseRule(e), abort_on_fail: true, grace_s: 0 }));

export interface CoordinatorBench {
  bytesPerMessage: number;
  /** In-process: parse + check + add one message, mean over the run. */
  inProcessUs: number;
  /** Judging every threshold four times in one interval: mean over the run, and at its 60th second. */
  judgeUs: number;
  lastJudgeUs: number;
  /** HTTP round trip per message, sequential: the coordinator vs a bare server parsing the same body. */
  httpUs: number;
  bareUs: number;
}

async function roundTrips(url: string, bodies: string[]): Promise<number> {
  const t0 = performance.now();
  for (const body of bodies) {
    const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body });
    await res.text();
  }
  return ((performance.now() - t0) * 1000) / bodies.length;
}

export async function benchCoordinator(): Promise<CoordinatorBench> {
  const bodies: string[][] = Array.from({ length: SECONDS }, (_, s) => Array.from({ length: SHARDS }, (_, i) => JSON.stringify(report(i + 1, s))));
  const bytesPerMessage = bodies.flat().reduce((n, b) => n + b.length, 0) / (SECONDS * SHARDS);

  // In-process, the clock stepped one second per round of reports; the thresholds judged four times a
  // second, as the coordinator's judging timer does (a tick with no new report hits the window cache).
  let now = 0;
  const live = new LiveRun(SECONDS + 5, RULES, () => ({}), () => now);
  let applied = 0;
  let judged = 0;
  let lastJudge = 0;
  for (let s = 0; s < SECONDS; s++) {
    now = (s + 1) * 1000;
    const t0 = performance.now();
    for (const body of bodies[s]) live.apply(parseReport(JSON.parse(body), SECONDS + 5));
    const t1 = performance.now();
    for (let tick = 0; tick < 4; tick++) if (live.abortReason()) throw new Error('bench: the plan must not abort');
    const t2 = performance.now();
    applied += t1 - t0;
    judged += t2 - t1;
    if (s === SECONDS - 1) lastJudge = (t2 - t1) * 1000;
  }
  const inProcessUs = (applied * 1000) / (SECONDS * SHARDS);
  const judgeUs = (judged * 1000) / SECONDS;
  // Over HTTP: the coordinator (started run) vs a bare server. Sequential, first 10 s of the run.
  const plan = { scenarios: [{ name: 'user-read' }], arrival_rate: SHARDS * PER_SECOND, duration: SECONDS, thresholds: { run: RULES.map((r) => ({ threshold: r.expr, abort_on_fail: true, grace: 0 })) } } as LoadPlan;
  const c = await startCoordinator({ shards: SHARDS, plan, planFile: 'bench', token: TOKEN, intervalMs: 1000 });
  const digest = planDigest(plan);
  await Promise.all(Array.from({ length: SHARDS }, (_, i) => fetch(`${c.url}/v1/join`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ version: 1, shard: { index: i + 1, total: SHARDS }, plan_digest: digest, machine: 'bench' }) }).then((r) => r.text())));
  const sample = bodies.slice(0, 10).flat();
  const bare = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (ch: Buffer) => chunks.push(ch));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/v1/report`;
  // Interleaved rounds, best of 7 each: a busy machine slows both alike.
  let httpUs = Infinity;
  let bareUs = Infinity;
  for (let round = 0; round < 7; round++) {
    bareUs = Math.min(bareUs, await roundTrips(bareUrl, sample));
    // Each round re-sends the same seconds as new reports (the coordinator adds them again; its bounds allow it).
    httpUs = Math.min(httpUs, await roundTrips(`${c.url}/v1/report`, sample));
  }
  bare.closeAllConnections();
  await new Promise((r) => bare.close(r));
  await c.close();
  return { bytesPerMessage, inProcessUs, judgeUs, lastJudgeUs: lastJudge, httpUs, bareUs };
}

/** Shards one core keeps up with at a 1 s interval: every message added, the thresholds judged 4 times. */
const capacity = (b: CoordinatorBench) => Math.floor((1e6 - b.lastJudgeUs) / Math.max(1, b.inProcessUs));

export function formatCoordinator(b: CoordinatorBench): string {
  const f = (n: number) => n.toFixed(0);
  return [
    `load coordinator, per shard message (${SHARDS} shards x ${SECONDS} reports at a 1 s interval, ${PER_SECOND} samples per report, ~${f(b.bytesPerMessage)} bytes; 4 thresholds, 2 windowed, all abort_on_fail):`,
    `  in-process, per message      : ${f(b.inProcessUs)} us to check and add it (HDR delta decoded and added)`,
    `  judging, per interval        : ${f(b.judgeUs)} us mean over the run, ${f(b.lastJudgeUs)} us at its 60th second (4 judgements; windows cached, only those a report touched recomputed)`,
    `  per message, judging shared  : ${f(b.inProcessUs + b.lastJudgeUs / SHARDS)} us at the 60th second with ${SHARDS} shards`,
    `  HTTP round trip, sequential  : ${f(b.httpUs)} us to the coordinator vs ${f(b.bareUs)} us to a bare node:http server parsing the same JSON (overhead ${f(b.httpUs - b.bareUs)} us)`,
    `  one core keeps up with ~${capacity(b)} shards at a 1 s interval (target >= 100)`,
    '',
  ].join('\n');
}

export const coordinatorMissed = (b: CoordinatorBench) => capacity(b) < 100;

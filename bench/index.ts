// `npm run bench`: benchmarks of the toolkit, as ratios against baselines measured in the same run.
// Exit 1 when a benchmark misses its target. BENCH_ONLY=load|reference|run|wan|startup|hostile-body|audit|coordinator runs one of them
// (reference also prints the default run's wall time, the other figure of its target).
import { benchAudit } from './audit.bench.ts';
import { benchCoordinator, coordinatorMissed, formatCoordinator } from './coordinator.bench.ts';
import { benchHostileBody, formatHostileBody, hostileBodyMissed } from './hostile-body.bench.ts';
import { benchLoad, JUDGING, loadMissed, OPEN_OVERLOAD } from './load.bench.ts';
import { benchReference, formatReference, referenceMissed } from './reference.bench.ts';
import { benchRun, formatRun, runMissed } from './run.bench.ts';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { benchWan, costsModule, formatWan, wanMissed } from './wan.bench.ts';
import { benchStartup, formatStartup, startupMissed } from './startup.bench.ts';
import { loadModel, operationLabel } from '../src/model/index.ts';
import { loadChecks } from '../suites/index.ts';

const userRead = operationLabel((await loadModel()).operation('getUserV1'));

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const only = process.env.BENCH_ONLY;

if (only === undefined || only === 'reference') {
  const r = await benchReference({
    durationSec: Number(process.env.BENCH_REFERENCE_SECONDS ?? 2),
    rounds: Number(process.env.BENCH_REFERENCE_ROUNDS ?? 8),
    burnUs: Number(process.env.BENCH_REFERENCE_BURN_US ?? 0),
  });
  process.stdout.write(formatReference(r, userRead));
  if (referenceMissed(r)) process.exitCode = 1;
}

// The default run's wall time (bench/run.bench.ts; BENCH_RUN_ROUNDS, default 3), beside the reference ratio.
if (only === undefined || only === 'reference' || only === 'run') {
  const run = await benchRun({ rounds: Number(process.env.BENCH_RUN_ROUNDS ?? 3) });
  process.stdout.write(formatRun(run));
  if (runMissed(run)) process.exitCode = 1;
}

// The default run behind a fixed-delay proxy (bench/wan.bench.ts): BENCH_WAN_DELAYS ms, comma-separated
// (default 50,150; the 50 ms figure has the target), BENCH_WAN_SEED (default 1), BENCH_WAN_ARGS (extra
// run flags, e.g. "--concurrency 32"), BENCH_WAN_RECORD=1 (rewrite suites/costs.ts from the first delay's run).
if (only === undefined || only === 'wan') {
  const exclusive = new Set((await loadChecks()).filter((c) => c.exclusive).map((c) => c.id));
  const extraArgs = (process.env.BENCH_WAN_ARGS ?? '').split(/\s+/).filter(Boolean);
  for (const delayMs of (process.env.BENCH_WAN_DELAYS ?? '50,150').split(',').map(Number)) {
    const w = await benchWan({ delayMs, seed: Number(process.env.BENCH_WAN_SEED ?? 1), exclusive, extraArgs });
    process.stdout.write(formatWan(w));
    // BENCH_WAN_RECORD=1: the first delay's chains become the runner's recorded costs (suites/costs.ts).
    if (process.env.BENCH_WAN_RECORD && delayMs === Number((process.env.BENCH_WAN_DELAYS ?? '50').split(',')[0])) {
      const file = new URL('../suites/costs.ts', import.meta.url);
      const old = await readFile(file, 'utf8');
      await writeFile(file, costsModule(w.chains, old.slice(0, old.indexOf('export const RECORDED_COSTS'))));
      process.stdout.write(`  recorded ${w.chains.size} checks' chains in suites/costs.ts\n`);
    }
    if (wanMissed(w)) process.exitCode = 1;
  }
}

if (only === undefined || only === 'load') {
  const l = await benchLoad({ durationSec: seconds, rounds: Number(process.env.BENCH_LOAD_ROUNDS ?? 5) });
  const lines = [`load generator vs bare node:http JSON server (child process), 10 connections, ${seconds} s each, ${l.rounds} rounds (medians):`];
  if (l.missing.length) lines.push(`  not installed, left out: ${l.missing.join(', ')} (apt-get install wrk hey)`);
  const leanest = Math.min(...l.rows.map((r) => r.cpuUsPerReq));
  for (const row of l.rows) {
    const ratio = row.ratio ? `ratio to ${l.best} ${row.ratio.median.toFixed(2)} (rounds ${row.ratio.low.toFixed(2)}-${row.ratio.high.toFixed(2)})` : 'baseline'.padEnd(34);
    lines.push(`  ${row.mode.padEnd(6)} ${row.tool.padEnd(62)} ${fmt(row.rps).padStart(8)} req/s  ${ratio}  ${row.cpuUsPerReq.toFixed(1).padStart(6)} us CPU/req (${(leanest / row.cpuUsPerReq).toFixed(2)} of the leanest)`);
  }
  const generator = l.rows.filter((r) => r.tool.startsWith('baas-conform') && !r.tool.endsWith(JUDGING));
  for (const row of generator) {
    const judged = l.rows.find((r) => r.tool === `${row.tool}${JUDGING}`);
    if (judged) lines.push(`  ${row.mode} model, judging every answer vs off: ${judged.cpuUsPerReq.toFixed(1)} vs ${row.cpuUsPerReq.toFixed(1)} us CPU/req (x${(judged.cpuUsPerReq / row.cpuUsPerReq).toFixed(2)}), req/s x${(judged.rps / row.rps).toFixed(2)}`);
  }
  lines.push(
    `  open model asks ${l.openRates.map(fmt).join(', ')} req/s by round (${OPEN_OVERLOAD}x the best closed figure so far) and is compared with the best closed baseline in the same round`,
    `  load average (1 min) ${l.load.before.toFixed(2)} before, ${l.load.after.toFixed(2)} after, on ${availableParallelism()} cores: a busy machine makes the req/s ratios noisy; the CPU per request is the steadier figure`,
    `  target: median over paired rounds of ours / ${l.best} (the best median of ${l.baselines.join(', ')}) >= ${l.target} judging off, >= ${l.judgedTarget} judging every answer (the default); same URL, headers, connections, duration; one warm-up each; order rotates per round`,
    `  command: ${l.command}`,
    '',
  );
  process.stdout.write(lines.join('\n'));
  // No baseline ran: nothing was compared, which is no pass.
  if (!l.best || loadMissed(l).length) process.exitCode = 1;
}

// CLI startup, tsx sources vs compiled dist/ (bench/startup.bench.ts; BENCH_STARTUP_ROUNDS, default 5).
if (only === undefined || only === 'startup') {
  const startup = await benchStartup({ rounds: Number(process.env.BENCH_STARTUP_ROUNDS ?? 5) });
  process.stdout.write(formatStartup(startup));
  if (startupMissed(startup)) process.exitCode = 1;
}

// Peak memory of the client refusing hostile bodies, as ratios to an accepted answer (bench/hostile-body.bench.ts).
if (only === undefined || only === 'hostile-body') {
  const hostile = await benchHostileBody({ rounds: Number(process.env.BENCH_HOSTILE_ROUNDS ?? 3) });
  process.stdout.write(formatHostileBody(hostile));
  if (hostileBodyMissed(hostile)) process.exitCode = 1;
}

// The client audit's recording front door vs the reference it forwards to (bench/audit.bench.ts).
if (only === undefined || only === 'audit') {
  const a = await benchAudit({ durationSec: seconds });
  process.stdout.write(
    [
      `client audit front door: ${userRead} (S2S token + X-User-Id + X-Chain-Id), 10 connections`,
      `  reference direct : ${fmt(a.direct.rps)} req/s (p99 ${a.direct.p99Ms} ms)`,
      `  through the audit: ${fmt(a.audit.rps)} req/s (p99 ${a.audit.p99Ms} ms, non-2xx ${a.audit.non2xx}; every exchange recorded)`,
      `  ratio            : ${a.ratio.toFixed(2)} (target >= ${a.target})`,
      '',
    ].join('\n'),
  );
  if (a.audit.non2xx > 0 || a.ratio < a.target) process.exitCode = 1;
}

// The load coordinator's cost per shard message (bench/coordinator.bench.ts).
if (only === undefined || only === 'coordinator') {
  const c = await benchCoordinator();
  process.stdout.write(formatCoordinator(c));
  if (coordinatorMissed(c)) process.exitCode = 1;
}

// `npm run bench`: micro-benchmarks of the toolkit. Exit 1 when a benchmark misses its target.
import { benchReference } from './reference.bench.ts';
import { benchStartup, formatStartup, startupMissed } from './startup.bench.ts';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const r = await benchReference({ durationSec: Number(process.env.BENCH_SECONDS ?? 5) });
process.stdout.write(
  [
    'reference server: GET /api/v1/user (S2S token + X-User-Id + X-Chain-Id), 10 connections',
    `  bare node:http : ${fmt(r.bare.rps)} req/s (p99 ${r.bare.p99Ms} ms)`,
    `  reference      : ${fmt(r.reference.rps)} req/s (p99 ${r.reference.p99Ms} ms, non-2xx ${r.reference.non2xx}, errors ${r.reference.errors})`,
    `  ratio          : ${r.ratio.toFixed(2)} (target >= ${r.target})`,
    '',
  ].join('\n'),
);
if (r.reference.non2xx > 0 || r.reference.errors > 0 || r.ratio < r.target) process.exitCode = 1;

// CLI startup, tsx sources vs compiled dist/ (bench/startup.bench.ts; BENCH_STARTUP_ROUNDS, default 5).
const startup = await benchStartup({ rounds: Number(process.env.BENCH_STARTUP_ROUNDS ?? 5) });
process.stdout.write(formatStartup(startup));
if (startupMissed(startup)) process.exitCode = 1;

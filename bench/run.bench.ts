// Wall time of the default conformance run, `baas-conform run` with no target (every check against the
// embedded reference), spawn to exit, as a user types it in a source checkout. The baseline, measured
// in the same rounds, is `baas-conform --version`: the cost of starting the CLI at all, so a busy
// machine shows up in both figures. Median of `rounds`, the two alternating; the target is absolute
// (a run fast enough to be a habit), printed, never unit-tested. Beside the wall time, the process's
// own CPU (every thread: JIT, GC and the crypto pool count) and that CPU per request: on a shared
// machine wall time is mostly other people's load, CPU time is what this code costs. The embedded
// reference answers in the same process, so its CPU is in the figure too.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../src/package/index.ts';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'baas-conform.js');
const LIMIT_MS = 300_000;
export const RUN_WALL_TARGET_MS = 3000;

export interface RunBench {
  rounds: number;
  /** Median wall time of `baas-conform run`, ms. */
  runMs: number;
  /** Median wall time of `baas-conform --version`, ms (the CLI's startup floor). */
  versionMs: number;
  /** Every run's wall time, ms, in order. */
  runSamples: number[];
  targetMs: number;
  /** Median CPU time of the `run` process, ms (user + system, all threads). */
  runCpuMs: number;
  /** Median CPU time of `--version`, ms: the CLI's start-up floor. */
  versionCpuMs: number;
  /** Requests the run sent (results.json summary), and the median CPU per request, ms. */
  requests: number;
  cpuMsPerRequest: number;
}

/** Prints the process's own CPU time (all threads) at exit. */
const CPU_PROBE = 'data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("\\nbench-cpu-us "+(u.user+u.system)+"\\n")})';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function wall(args: string[], cwd: string): Promise<{ ms: number; cpuMs: number }> {
  const began = performance.now();
  const { stderr } = await promisify(execFile)(process.execPath, ['--import', CPU_PROBE, BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, timeout: LIMIT_MS, maxBuffer: 64 * 1024 * 1024 });
  const us = /bench-cpu-us (\d+)/.exec(String(stderr))?.[1];
  return { ms: performance.now() - began, cpuMs: us ? Number(us) / 1000 : NaN };
}

export async function benchRun(opts: { rounds?: number } = {}): Promise<RunBench> {
  const rounds = Math.max(1, Math.floor(opts.rounds ?? 3));
  const cwd = await mkdtemp(path.join(tmpdir(), 'bc-bench-run-'));
  try {
    // One warm-up (disk cache, tsx's transform cache), not counted. A failing run rejects (execFile).
    await wall(['run', '--report-dir', cwd], cwd);
    const runs: { ms: number; cpuMs: number }[] = [];
    const versions: { ms: number; cpuMs: number }[] = [];
    for (let i = 0; i < rounds; i++) {
      versions.push(await wall(['--version'], cwd));
      runs.push(await wall(['run', '--report-dir', cwd], cwd));
    }
    const results = JSON.parse(await readFile(path.join(cwd, 'results.json'), 'utf8')) as { summary: { requests: number } };
    const runCpuMs = median(runs.map((r) => r.cpuMs));
    return {
      rounds,
      runMs: Math.round(median(runs.map((r) => r.ms))),
      versionMs: Math.round(median(versions.map((r) => r.ms))),
      runSamples: runs.map((r) => Math.round(r.ms)),
      targetMs: RUN_WALL_TARGET_MS,
      runCpuMs: Math.round(runCpuMs),
      versionCpuMs: Math.round(median(versions.map((r) => r.cpuMs))),
      requests: results.summary.requests,
      cpuMsPerRequest: runCpuMs / results.summary.requests,
    };
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

export function formatRun(r: RunBench): string {
  return [
    `default run (\`baas-conform run\`, embedded reference, spawn to exit; median of ${r.rounds})`,
    `  run      : ${r.runMs} ms wall (target < ${r.targetMs} ms; rounds ${r.runSamples.join(', ')} ms)`,
    `  CPU      : ${r.runCpuMs} ms for ${r.requests} requests, ${r.cpuMsPerRequest.toFixed(2)} ms per request (the run process, every thread, embedded reference included; start-up floor: --version ${r.versionCpuMs} ms)`,
    `  --version: ${r.versionMs} ms wall (baseline: CLI startup alone)`,
    '',
  ].join('\n');
}

export const runMissed = (r: RunBench): boolean => r.runMs >= r.targetMs;

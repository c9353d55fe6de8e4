// Wall time of the default conformance run, `baas-conform run` with no target (every check against the
// embedded reference), spawn to exit, as a user types it in a source checkout. The baseline, measured
// in the same rounds, is `baas-conform --version`: the cost of starting the CLI at all, so a busy
// machine shows up in both figures. Median of `rounds`, the two alternating; the target is absolute
// (a run fast enough to be a habit), printed, never unit-tested.

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function wall(args: string[], cwd: string): Promise<number> {
  const began = performance.now();
  await promisify(execFile)(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, timeout: LIMIT_MS, maxBuffer: 64 * 1024 * 1024 });
  return performance.now() - began;
}

export async function benchRun(opts: { rounds?: number } = {}): Promise<RunBench> {
  const rounds = Math.max(1, Math.floor(opts.rounds ?? 3));
  const cwd = await mkdtemp(path.join(tmpdir(), 'bc-bench-run-'));
  try {
    // One warm-up (disk cache, tsx's transform cache), not counted. A failing run rejects (execFile).
    await wall(['run', '--report-dir', cwd], cwd);
    const runs: number[] = [];
    const versions: number[] = [];
    for (let i = 0; i < rounds; i++) {
      versions.push(await wall(['--version'], cwd));
      runs.push(await wall(['run', '--report-dir', cwd], cwd));
    }
    return { rounds, runMs: Math.round(median(runs)), versionMs: Math.round(median(versions)), runSamples: runs.map(Math.round), targetMs: RUN_WALL_TARGET_MS };
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

export function formatRun(r: RunBench): string {
  return [
    `default run (\`baas-conform run\`, embedded reference, spawn to exit; median of ${r.rounds})`,
    `  run      : ${r.runMs} ms wall (target < ${r.targetMs} ms; rounds ${r.runSamples.join(', ')} ms)`,
    `  --version: ${r.versionMs} ms wall (baseline: CLI startup alone)`,
    '',
  ].join('\n');
}

export const runMissed = (r: RunBench): boolean => r.runMs >= r.targetMs;

// Startup of the CLI, TypeScript sources through tsx (what a source checkout runs) against the compiled
// dist/ (what the installed package and the container run), measured in the same process so the ratio
// holds on a loaded machine. Two figures per mode, each the median of `rounds` runs, modes alternating:
// - `--version`: process spawn to exit;
// - first check: process spawn to the console's run-started line of `run` against the embedded
//   reference (the runner emits run-started and the first check-started in the same tick).

import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../src/package/index.ts';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'baas-conform.js');
const MODES = { tsx: { BAAS_CONFORM_DIST: '0' }, compiled: { BAAS_CONFORM_DIST: '1' } } as const;
type Mode = keyof typeof MODES;
/** The console's run-started line: `baas-conform 0.1.0 → reference (...): 122 checks, seed 123`. */
const RUN_STARTED = /: \d+ checks?, seed \d+/;
const LIMIT_MS = 120_000;

export interface StartupFigures {
  versionMs: number;
  firstCheckMs: number;
}

export interface StartupBench {
  rounds: number;
  tsx: StartupFigures;
  compiled: StartupFigures;
  /** compiled / tsx; below 1 means the compiled CLI starts faster. */
  ratio: StartupFigures;
  /** The compiled CLI must start at least this much faster (ratio <= target). */
  target: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timeVersion(mode: Mode): Promise<number> {
  const began = performance.now();
  return promisify(execFile)(process.execPath, [BIN, '--version'], { env: { ...process.env, ...MODES[mode] }, timeout: LIMIT_MS }).then(() => performance.now() - began);
}

async function timeFirstCheck(mode: Mode): Promise<number> {
  const cwd = await mkdtemp(path.join(tmpdir(), 'bc-bench-startup-'));
  const began = performance.now();
  const child = spawn(process.execPath, [BIN, 'run', '--report-dir', cwd], { cwd, env: { ...process.env, ...MODES[mode], NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    return await new Promise<number>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`${mode}: no run-started line within ${LIMIT_MS} ms`)), LIMIT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (RUN_STARTED.test(out)) {
          clearTimeout(timer);
          resolve(performance.now() - began);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${mode}: run exited (${code}) before starting a check: ${out.slice(-500)}`));
      });
    });
  } finally {
    // The measurement ends at the first check; the rest of the run is not needed.
    child.kill('SIGKILL');
    await rm(cwd, { recursive: true, force: true });
  }
}

/** Builds dist/ from the current sources first, so "compiled" is never an older build. */
export async function benchStartup(opts: { rounds?: number; build?: boolean } = {}): Promise<StartupBench> {
  const rounds = opts.rounds ?? 5;
  if (opts.build !== false) await promisify(execFile)('npm', ['run', '-s', 'build'], { cwd: PACKAGE_ROOT, timeout: 5 * LIMIT_MS });
  const samples: Record<Mode, { version: number[]; first: number[] }> = { tsx: { version: [], first: [] }, compiled: { version: [], first: [] } };
  // One warm-up each (disk cache, tsx's transform cache), then alternate so machine load hits both.
  await timeVersion('tsx');
  await timeVersion('compiled');
  for (let i = 0; i < rounds; i++) {
    for (const mode of (i % 2 ? ['compiled', 'tsx'] : ['tsx', 'compiled']) as Mode[]) {
      samples[mode].version.push(await timeVersion(mode));
      samples[mode].first.push(await timeFirstCheck(mode));
    }
  }
  const figures = (m: Mode): StartupFigures => ({ versionMs: Math.round(median(samples[m].version)), firstCheckMs: Math.round(median(samples[m].first)) });
  const tsx = figures('tsx');
  const compiled = figures('compiled');
  return {
    rounds,
    tsx,
    compiled,
    ratio: { versionMs: compiled.versionMs / tsx.versionMs, firstCheckMs: compiled.firstCheckMs / tsx.firstCheckMs },
    target: 0.9,
  };
}

export function formatStartup(s: StartupBench): string {
  const row = (label: string, key: keyof StartupFigures) =>
    `  ${label}: tsx sources ${s.tsx[key]} ms, compiled dist/ ${s.compiled[key]} ms, ratio ${s.ratio[key].toFixed(2)} (target <= ${s.target})`;
  return [`CLI startup (median of ${s.rounds}, spawn to event)`, row('--version          ', 'versionMs'), row('run: first check   ', 'firstCheckMs'), ''].join('\n');
}

export const startupMissed = (s: StartupBench): boolean => s.ratio.versionMs > s.target || s.ratio.firstCheckMs > s.target;

// Peak memory of the client refusing hostile bodies (a 1.5 GiB gzip bomb, a 1e6-deep JSON array, a
// 20 MiB streamed body), as a ratio to the same client reading the largest answer it accepts (a JSON
// body just under the limit, gzip-encoded), measured in the same run. Each case runs in a child process
// of its own (bench/hostile-body.child.ts) and reports its peak RSS, so nothing else the process did
// counts; cases alternate over the rounds and the median is kept. This was a heap bound in
// test/hostile; as a test it measured the whole suite and GC timing, so it lives here. The
// tests bound what the client held when it refused (TransportError.bytes) instead.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { CLIENT_DEFAULTS } from '../src/client/index.ts';

/** A hostile case may peak at most this many times the baseline's RSS (an unbounded decode is > 10). */
export const HOSTILE_BODY_TARGET = 1.5;
const CHILD = path.join(import.meta.dirname, 'hostile-body.child.ts');
const LIMIT_MS = 60_000;

export interface HostileBodyRow {
  name: string;
  peakMb: number;
  /** peak RSS / the baseline's peak RSS (medians). */
  ratio: number;
  outcome: string;
}

export interface HostileBodyBench {
  rounds: number;
  baselineMb: number;
  baselineOutcome: string;
  rows: HostileBodyRow[];
  target: number;
}

interface Case {
  name: string;
  spec: string;
  headers: Record<string, string>;
}

async function payloads(dir: string): Promise<Case[]> {
  const write = async (name: string, data: Buffer) => {
    const file = path.join(dir, name);
    await writeFile(file, data);
    return file;
  };
  const json = { 'content-type': 'application/json' };
  const max = CLIENT_DEFAULTS.maxBodyBytes;
  // The largest answer the client accepts: valid JSON one KiB under the limit, gzip-encoded.
  const accepted = zlib.gzipSync(Buffer.from(JSON.stringify({ pad: 'x'.repeat(max - 1024) })));
  // 24 gzip members of 64 MiB of zeros: ~1.5 MiB on the wire, 1.5 GiB decoded (as test/hostile/proxy.ts).
  const member = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  const bomb = Buffer.concat(Array.from({ length: 24 }, () => member));
  const deep = Buffer.from(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
  return [
    { name: 'baseline: 2 MiB JSON (gzip)', spec: await write('accepted.gz', accepted), headers: { ...json, 'content-encoding': 'gzip' } },
    { name: 'gzip bomb (1.5 GiB decoded)', spec: await write('bomb.gz', bomb), headers: { ...json, 'content-encoding': 'gzip' } },
    { name: '1e6-deep JSON array', spec: await write('deep.json', deep), headers: json },
    { name: '20 MiB streamed body', spec: `stream:${20 * 1024 * 1024}`, headers: json },
  ];
}

async function runCase(c: Case): Promise<{ maxRssBytes: number; outcome: string }> {
  // process.execArgv carries tsx's loader, so the child runs the TypeScript sources like this process.
  const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, CHILD, c.spec, JSON.stringify(c.headers)], { timeout: LIMIT_MS });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { maxRssBytes: number; outcome: string };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;

export async function benchHostileBody(opts: { rounds: number }): Promise<HostileBodyBench> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-hostile-'));
  try {
    const cases = await payloads(dir);
    const peaks = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    const outcomes = new Map<string, string>();
    for (let round = 0; round < opts.rounds; round++) {
      for (const c of cases) {
        const r = await runCase(c);
        peaks.get(c.name)!.push(r.maxRssBytes);
        outcomes.set(c.name, r.outcome);
      }
    }
    const [base, ...hostile] = cases;
    const baseline = median(peaks.get(base.name)!);
    return {
      rounds: opts.rounds,
      baselineMb: mb(baseline),
      baselineOutcome: outcomes.get(base.name)!,
      rows: hostile.map((c) => ({ name: c.name, peakMb: mb(median(peaks.get(c.name)!)), ratio: median(peaks.get(c.name)!) / baseline, outcome: outcomes.get(c.name)! })),
      target: HOSTILE_BODY_TARGET,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function formatHostileBody(b: HostileBodyBench): string {
  const lines = [`client peak RSS on hostile bodies (own child process each, median of ${b.rounds} rounds):`, `  ${'baseline: largest accepted answer'.padEnd(34)} ${String(b.baselineMb).padStart(7)} MB  ${b.baselineOutcome}`];
  for (const r of b.rows) lines.push(`  ${r.name.padEnd(34)} ${String(r.peakMb).padStart(7)} MB  ratio ${r.ratio.toFixed(2)}  ${r.outcome}`);
  lines.push(`  target: every ratio <= ${b.target}`, '');
  return lines.join('\n');
}

export const hostileBodyMissed = (b: HostileBodyBench) => b.rows.some((r) => r.ratio > b.target);

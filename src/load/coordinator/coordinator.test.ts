// load coordinate with 3 loopback shard processes against one target. The target stalls only the
// traffic of shard 2 (it comes in on a second port): a windowed p99 abort_on_fail threshold then
// stops all three within two reports after the grace period, and the merged verdict names it. The
// same plan without the stall passes, and its merged percentiles equal `load merge` of the shard
// files, the HDR deltas streamed live, and the raw samples (what one node would record). A killed
// shard makes the run inconclusive (exit 4).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer as createTcpServer, connect, type AddressInfo, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry } from '../../../test/cli-bundle.ts';
import { captureIo } from '../../cli/capture.ts';
import { main } from '../../cli/index.ts';
import { exitCodeOf } from '../../errors/index.ts';
import { newHistogram, summarise } from '../histogram.ts';
import { readPlan } from '../plan.ts';
import { stallTarget, type StallTarget } from '../testing.ts';
import type { LoadResult } from '../types.ts';
import { startCoordinator, type CoordinatedRun } from './index.ts';

// The shards are separate processes, as on separate machines (and one is killed): the bundled CLI (test/cli-bundle.ts).
const BIN = cliEntry();
const TOKEN = 'test-run-token-0123456789abcdef';
const N = 3;
const RATE = 60;
const STALL_MS = 1500;
const GRACE_S = 2;
const THRESHOLD = 'p99 < 1000 over 1s';
const PLAN = (duration: number, threshold = true) => `scenarios: [{ name: user-read }]
arrival_rate: ${RATE}
connections: 150
duration: ${duration}
timeout_ms: 4000
drain_ms: 3000
${threshold ? `thresholds:
  run:
    - { threshold: "${THRESHOLD}", abort_on_fail: true, grace: ${GRACE_S} }
` : ''}`;

/** A second port into the same target: connections through it are remembered, so the target can stall exactly them. */
async function relay(upstreamPort: number): Promise<{ port: number; via: Set<number>; close(): Promise<void> }> {
  const via = new Set<number>();
  const server: TcpServer = createTcpServer((down) => {
    const up = connect(upstreamPort, '127.0.0.1', () => via.add(up.localPort!));
    down.pipe(up).pipe(down);
    down.on('error', () => up.destroy());
    up.on('error', () => down.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, via, close: () => new Promise((r) => server.close(() => r())) };
}

interface Shard {
  proc: ChildProcess;
  exit: Promise<number | null>;
  err(): string;
}

function shard(args: string[]): Shard {
  const env = { ...process.env, BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a', BAAS_RUN_TOKEN: TOKEN, NO_COLOR: '1' };
  const proc = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const kill = setTimeout(() => proc.kill('SIGKILL'), 150_000);
  const exit = new Promise<number | null>((r) => proc.on('exit', (code) => (clearTimeout(kill), r(code))));
  return { proc, exit, err: () => err };
}

/** Polls until `cond` (every 50 ms, at most `tries` times). */
async function until(cond: () => boolean, tries = 2400): Promise<void> {
  for (let i = 0; i < tries && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(cond()).toBe(true);
}

describe('load coordinate: 3 loopback shard processes, one live verdict', () => {
  let t: StallTarget;
  let stalled = false;
  let port2: Awaited<ReturnType<typeof relay>>;
  let dir: string;
  beforeAll(async () => {
    // Only what arrives through the second port (shard 2's share) stalls, and only while `stalled`.
    t = await stallTarget({ delayFor: (_n, req) => (stalled && port2.via.has(req.socket.remotePort!) ? STALL_MS : 0) });
    port2 = await relay(Number(new URL(t.base_url).port));
    dir = await mkdtemp(join(tmpdir(), 'bc-coord-'));
  });
  afterAll(async () => {
    await port2.close();
    await t.close();
  });

  async function coordinated(tag: string, duration: number): Promise<{ run: CoordinatedRun; parts: string[]; raws: string[]; codes: (number | null)[]; errs: string }> {
    const planFile = join(dir, `${tag}.yaml`);
    await writeFile(planFile, PLAN(duration));
    const c = await startCoordinator({ shards: N, plan: await readPlan(planFile), planFile, token: TOKEN, reportDir: join(dir, tag) });
    const parts = Array.from({ length: N }, (_, i) => join(dir, `${tag}-part-${i + 1}.json`));
    const raws = Array.from({ length: N }, (_, i) => join(dir, `${tag}-raw-${i + 1}.txt`));
    const shards = parts.map((out, i) => {
      const target = i === 1 ? `http://127.0.0.1:${port2.port}` : t.base_url;
      return shard(['load', '--plan', planFile, '--coordinator', c.url, '--shard', `${i + 1}/${N}`, '--target', target, '--out', out, '--raw-out', raws[i], '--no-progress']);
    });
    const codes = await Promise.all(shards.map((s) => s.exit));
    const run = await c.done;
    await c.close();
    expect(codes.filter((x) => x === 2), shards.map((s) => s.err()).join('\n')).toEqual([]);
    return { run, parts, raws, codes, errs: shards.map((s) => s.err()).join('\n') };
  }

  it('without the stall it passes: coordinated, load merge of the shard files and the raw samples agree', async () => {
    const { run, parts, raws, codes, errs } = await coordinated('clean', 3);
    expect(codes, errs).toEqual([0, 0, 0]);
    expect(run.outcome, JSON.stringify(run.result?.verdict)).toBe('pass');
    const merged = captureIo({ env: {} });
    expect(await main(['load', 'merge', ...parts, '--json', '--threshold', THRESHOLD], merged.io)).toBe(0);
    const m = JSON.parse(merged.out()) as LoadResult;
    const raw = newHistogram();
    for (const f of raws) for (const line of (await readFile(f, 'utf8')).split('\n').filter(Boolean)) raw.recordValue(Number(line));
    const r = run.result!;
    expect(r.counts.attempts).toBe(RATE * 3);
    expect(r.latency_ms).toEqual(m.latency_ms);
    expect(r.latency_ms).toEqual(summarise(raw));
    // The live view (HDR deltas added second by second) saw the same samples.
    expect(run.live.latency_ms).toEqual(summarise(raw));
    expect(run.live.requests).toBe(r.counts.attempts);
    expect(r.operations).toEqual(m.operations);
    expect(r.timeline.map((p) => p.p99_ms)).toEqual(m.timeline.map((p) => p.p99_ms));
    expect(r.conformance!.judged).toBe(m.conformance!.judged);
    expect(run.live.judged).toBe(m.conformance!.judged);
    expect(run.live.findings).toBe(m.conformance!.findings);
    expect(r.verdict.thresholds?.[0]).toMatchObject({ expr: THRESHOLD, pass: true });
  }, 200_000);

  // The stall and the killed shard run at once: each has its own shards and coordinator, and only
  // shard 2's port stalls (the killed run goes to the target directly). The clean run, whose p99 must
  // pass, runs before them, alone.
  it.concurrent('a windowed p99 breach on shard 2 stops all three within two reports after the grace; the merged verdict names it', async () => {
    stalled = true;
    const { run, parts, codes } = await coordinated('stall', 12);
    stalled = false;
    expect(run.abort?.reason).toContain(`abort_on_fail threshold ${THRESHOLD} failed`);
    expect(run.abort!.at_s).toBeGreaterThanOrEqual(GRACE_S);
    for (const s of run.shards) {
      expect(s.first_report_after_grace, s.shard).not.toBeNull();
      expect(s.stopped_on_report, s.shard).not.toBeNull();
      expect(s.stopped_on_report! - s.first_report_after_grace!, s.shard).toBeLessThanOrEqual(2);
    }
    expect(run.outcome).toBe('fail');
    expect(run.result!.verdict.reasons.join('\n')).toContain(`threshold ${THRESHOLD} breached`);
    expect(run.result!.aborted?.reason).toContain(THRESHOLD);
    // Every shard obeyed: its own result says who stopped it, and it sent less than its 12 s schedule
    // (counted in sends; how soon is the reports' count above, not a share of the schedule's seconds,
    // which a loaded machine stretches).
    for (const p of parts) {
      const r = JSON.parse(await readFile(p, 'utf8')) as LoadResult;
      expect(r.aborted?.reason).toMatch(/^coordinator: abort_on_fail threshold p99 < 1000 over 1s failed/);
      expect(r.counts.attempts).toBeLessThan((RATE / N) * 12);
    }
    expect(codes).toEqual([1, 1, 1]);
    const written = JSON.parse(await readFile(join(dir, 'stall', 'load.json'), 'utf8')) as LoadResult;
    expect(written.verdict.outcome).toBe('fail');
    expect(await readFile(join(dir, 'stall', 'load.html'), 'utf8')).toContain('<html');
  }, 200_000);

  it.concurrent('a killed shard makes the run inconclusive: exit 4 naming the shard', async () => {
    const planFile = join(dir, 'killed.yaml');
    // No threshold: on a loaded machine a p99 breach would stop the run (exit 1) before the kill shows.
    await writeFile(planFile, PLAN(6, false));
    const c = captureIo({ env: { BAAS_RUN_TOKEN: TOKEN } });
    const code = main(['load', 'coordinate', '--shards', String(N), '--plan', planFile, '--report-dir', join(dir, 'killed')], c.io);
    await until(() => /coordinator: (http:\/\/\S+) /.test(c.err()));
    const url = /coordinator: (http:\/\/\S+) /.exec(c.err())![1];
    const shards = Array.from({ length: N }, (_, i) => shard(['load', '--plan', planFile, '--coordinator', url, '--shard', `${i + 1}/${N}`, '--target', t.base_url, '--no-progress']));
    await until(() => c.err().includes(`shard ${N}/${N}: first report`));
    shards[N - 1].proc.kill('SIGKILL');
    expect(await code).toBe(4);
    await Promise.all(shards.map((s) => s.exit));
    const r = JSON.parse(await readFile(join(dir, 'killed', 'load.json'), 'utf8')) as LoadResult;
    expect(r.verdict.outcome).toBe('inconclusive');
    expect(r.verdict.inconclusive?.join('\n')).toMatch(/INCONCLUSIVE: shard 3\/3 judged nothing because its result never arrived/);
    expect(exitCodeOf(r.verdict.outcome!)).toBe(4);
    expect(c.err()).not.toContain(TOKEN);
  }, 200_000);
});

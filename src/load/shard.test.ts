// --shard i/n past one machine: n worker processes against one loopback target, each taking 1/n of
// the arrival rate; `load merge` of their results gives exactly the percentiles of the combined raw data.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry } from '../../test/cli-bundle.ts';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { newHistogram, summarise, type LoadResult } from './index.ts';
import { everyNth, stallTarget, type StallTarget } from './testing.ts';

const run = promisify(execFile);
// Worker processes of the bundled CLI (test/cli-bundle.ts): what is under test is the shards, not how a checkout starts.
const BIN = cliEntry();
const N = 3;
const RATE = 150;

describe('load --shard i/n and load merge', () => {
  let t: StallTarget;
  beforeAll(async () => {
    // Some slow answers, so the distribution has a tail worth comparing.
    t = await stallTarget({ delayFor: everyNth(17, 40) });
  });
  afterAll(() => t.close());

  it(`${N} worker processes, merged percentiles equal those of the combined raw samples`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bc-shard-'));
    const env = { ...process.env, BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a', NO_COLOR: '1' };
    const workers = Array.from({ length: N }, (_, i) =>
      run(process.execPath, [BIN, 'load', 'user-read', '--target', t.base_url, '--arrival-rate', String(RATE), '--duration', '1.5', '--shard', `${i + 1}/${N}`, '--out', join(dir, `part-${i + 1}.json`), '--raw-out', join(dir, `raw-${i + 1}.txt`), '--no-progress'], { env, timeout: 120_000 }),
    );
    await Promise.all(workers);
    const parts: LoadResult[] = [];
    const raw = newHistogram();
    let samples = 0;
    for (let i = 1; i <= N; i++) {
      const p = JSON.parse(await readFile(join(dir, `part-${i}.json`), 'utf8')) as LoadResult;
      expect(p.config.shard).toEqual({ index: i, count: N });
      expect(p.config.arrival_rate).toBeCloseTo(RATE / N, 6);
      expect(p.mode).toBe('open');
      parts.push(p);
      for (const line of (await readFile(join(dir, `raw-${i}.txt`), 'utf8')).split('\n').filter(Boolean)) {
        raw.recordValue(Number(line));
        samples++;
      }
    }
    // The merge reads the files the processes wrote: here, in-process.
    const m = captureIo({ env: {} });
    expect(await main(['load', 'merge', ...parts.map((_, i) => join(dir, `part-${i + 1}.json`)), '--json'], m.io)).toBe(0);
    const merged = JSON.parse(m.out()) as LoadResult;
    // Each worker took 1/N of the rate: together the full schedule.
    expect(merged.config.arrival_rate).toBeCloseTo(RATE, 6);
    expect(merged.counts.attempts).toBe(parts.reduce((n, p) => n + p.counts.attempts, 0));
    expect(merged.counts.attempts).toBe(RATE * 1.5);
    expect(samples).toBe(merged.counts.attempts);
    expect(t.gets()).toBe(merged.counts.attempts);
    // Exact: the summed HDR histogram is the histogram of all samples.
    expect(merged.latency_ms).toEqual(summarise(raw));
    expect(merged.operations.getUserV1.latency_ms).toEqual(summarise(raw));
    expect(merged.sources.map((s) => s.shard).sort()).toEqual(['1/3', '2/3', '3/3']);
  }, 180_000);

  it('refuses a malformed shard (exit 2)', async () => {
    for (const bad of ['0/3', '4/3', '1-3', '2']) {
      const c = captureIo({ env: { BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a' } });
      expect(await main(['load', 'user-read', '--target', t.base_url, '--shard', bad], c.io), bad).toBe(2);
      expect(c.err(), bad).toMatch(/--shard must look like i\/n/);
    }
  });
});

import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/index.ts';
import { captureIo } from '../cli/capture.ts';
import { resolveProfile, type ResolvedProfile } from '../profile/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { check429, decodeHistogram, encodeHistogram, isLoopbackHost, mergeResults, newHistogram, runLoad, summarise, type LoadResult } from './index.ts';

async function cli(argv: string[], env: Record<string, string> = {}) {
  const cwd = await mkdtemp(join(tmpdir(), 'bc-load-'));
  const c = captureIo({ env, cwd });
  const code = await main(argv, c.io);
  return { code, stdout: c.out(), stderr: c.err(), cwd };
}

describe('load: token-burst', () => {
  let ref: ReferenceServer;
  // The window is the test's, not the machine's: an hour of the reference's clock, so the burst's
  // window never ends on its own before the probe, however long the drain takes on a loaded machine
  // (a 1.5 s window once ran out first: the probe's first attempt got 200, not 429). The window ends
  // when the test moves the reference clock past it: on answering the probe's first 429. The limit
  // needs no throughput either: 3 a window, one taken by setup's token, and the engine's 4 connections
  // send 4 at once (a loaded machine sent fewer than 30 in the 1 s burst and saw no 429).
  const WINDOW_S = 3600;
  let advanced = 0;
  let burst429 = 0;
  beforeAll(async () => {
    ref = await startReference({
      rateLimit: { perIp: 100_000, perClient: 3, windowMs: WINDOW_S * 1000 },
      transform: async (req, res) => {
        if (req.operationId !== 'createToken' || res.status !== 429) return;
        // The probe sends through the setup client (an X-Request-Id on every attempt); the burst's engine does not.
        if (req.headers['x-request-id'] === undefined) return void burst429++;
        if (advanced++ > 0) return;
        const moved = await fetch(`${ref.profile.control_url}/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: WINDOW_S }) });
        if (moved.status !== 200) throw new Error(`clock advance answered ${moved.status}`);
        // This 429's Retry-After was the hour left before the move (the probe caps it at 10 s, and slept
        // 10 s); after the move the window has ended: the shortest wait a whole-second header can ask.
        res.headers['retry-after'] = '1';
      },
    });
  });
  afterAll(() => ref.close());

  it('sees 429s with the section 7/8 category and the backoff client recovers', async () => {
    const r = await runLoad({ scenario: 'token-burst', profile: resolveProfile(ref.profile, { env: {} }), durationSec: 1, connections: 4, maxRequests: 3000 });
    expect(r.counts['429']).toBeGreaterThan(0);
    expect(burst429).toBe(r.counts['429']);
    expect(r.counts['2xx']).toBeGreaterThan(0);
    expect(r.contracts?.['429-shape']).toMatchObject({ rule: 'ERR-RATE-LIMITED', checked: r.counts['429'], violations: 0, expected: 'error_category CategoryTransientFailure / 429' });
    expect(r.counts.errors).toBe(0);
    const rec = r.recovery![0];
    expect(rec.limited_at_start).toBe(true);
    expect(rec.recovered).toBe(true);
    expect(rec.recovery_ms).toBeGreaterThan(0);
    // The window ended once, when the test moved the clock: every probe attempt before the 200 was a 429.
    expect(advanced).toBe(rec.attempts.length - 1);
    // What the probe did, not how long the machine took to do it: 429s waited out (each retry after
    // a backoff sleep it recorded), then the 200; recovery time is when that 200 came.
    expect(rec.attempts.length).toBeGreaterThan(1);
    expect(rec.attempts.slice(0, -1).map((a) => a.status)).toEqual(rec.attempts.slice(0, -1).map(() => 429));
    expect(rec.attempts.slice(0, -1).every((a) => a.waited_ms !== undefined)).toBe(true);
    expect(rec.recovery_ms).toBe(rec.attempts.at(-1)!.at_ms);
    expect(rec.attempts.at(-1)!.status).toBe(200);
    expect(r.verdict).toEqual({ pass: true, outcome: 'pass', reasons: [] });
  });

  it('the 429 contract check flags a wrong category or status', () => {
    const ok = JSON.stringify({ error_reason: 'x', error_category: { category: 'CategoryTransientFailure', http_status_code: 429 } });
    expect(check429(ok, 'CategoryTransientFailure')).toBeUndefined();
    expect(check429(ok.replace('CategoryTransientFailure', 'CategoryInternalFailure'), 'CategoryTransientFailure')).toMatch(/category/);
    expect(check429(ok.replace('429', '500'), 'CategoryTransientFailure')).toMatch(/http_status_code/);
    expect(check429('busy', 'CategoryTransientFailure')).toMatch(/not JSON/);
  });
});

describe('load: user-read, thresholds, merge', () => {
  let ref: ReferenceServer;
  let profile: ResolvedProfile;
  const runs: LoadResult[] = [];
  beforeAll(async () => {
    ref = await startReference();
    profile = resolveProfile(ref.profile, { env: {} });
  });
  afterAll(() => ref.close());

  it('produces percentiles and passes a loose threshold', async () => {
    // Loose bounds that need no throughput: p99 under the 30 s timeout budget (a slower answer is a
    // timeout, an error), and 1 answer a second where the closed loop answered several per connection.
    const r = await runLoad({ scenario: 'user-read', profile, durationSec: 1, connections: 2, thresholds: { p99MaxMs: 30_000, errorRateMax: 0.01, rpsMin: 1 } });
    runs.push(r);
    // The closed loop: each connection sent again on every answer (a loaded machine answered 75 in 1 s, not > 100).
    expect(r.counts.responses).toBeGreaterThan(2 * 2);
    expect(r.counts['2xx']).toBe(r.counts.responses);
    const l = r.latency_ms;
    expect(l.count).toBe(r.counts.responses);
    expect(l.p50).toBeGreaterThan(0);
    expect(l.p50).toBeLessThanOrEqual(l.p90);
    expect(l.p90).toBeLessThanOrEqual(l.p99);
    expect(l.p99).toBeLessThanOrEqual(l.p999);
    expect(l.p999).toBeLessThanOrEqual(l.max);
    expect(r.rps).toBeCloseTo(r.counts.responses / r.duration_s, 0);
    expect(r.rps).toBeGreaterThanOrEqual(1);
    expect(r.config.timeout_ms).toBe(30_000);
    expect(r.mode).toBe('closed');
    expect(r.notes.join(' ')).toMatch(/closed model/);
    expect(r.verdict).toEqual({ pass: true, outcome: 'pass', reasons: [] });
  });

  it('merge adds counts and recomputes percentiles from the summed histogram', async () => {
    runs.push(await runLoad({ scenario: 'user-read', profile, durationSec: 1, connections: 3 }));
    const [a, b] = runs;
    const m = mergeResults([a, b]);
    expect(m.counts.responses).toBe(a.counts.responses + b.counts.responses);
    expect(m.counts.attempts).toBe(a.counts.attempts + b.counts.attempts);
    expect(m.counts.status['200']).toBe(a.counts.status['200'] + b.counts.status['200']);
    expect(m.latency_ms.count).toBe(a.latency_ms.count + b.latency_ms.count);
    expect(m.latency_ms.p99).toBeGreaterThanOrEqual(Math.min(a.latency_ms.p99, b.latency_ms.p99));
    expect(m.latency_ms.p99).toBeLessThanOrEqual(Math.max(a.latency_ms.p99, b.latency_ms.p99));
    expect(m.latency_ms.max).toBe(Math.max(a.latency_ms.max, b.latency_ms.max));
    expect(m.rps).toBeCloseTo(a.rps + b.rps, 1);
    expect(m.sources).toHaveLength(2);
    expect(() => mergeResults([a, { ...b, scenario: 'token-burst' }])).toThrow(/different scenarios/);
  });

  it('a request slower than the timeout budget counts as a failure', async () => {
    // Fast setup endpoints, a read that stalls past the 1 s budget.
    const server = createServer((req, res) => {
      const reply = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 't0ken-value', user_id: 'u-1' }));
      if (req.method === 'GET') setTimeout(reply, 1500).unref();
      else reply();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base_url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const slow = resolveProfile({ base_url, clients: [{ client_id: 'a', client_secret: 'secret-a' }, { client_id: 'b', client_secret: 'secret-b' }] }, { env: {} });
      const r = await runLoad({ scenario: 'user-read', profile: slow, durationSec: 1.5, connections: 2, timeoutMs: 1000 });
      expect(r.counts.timeouts).toBeGreaterThan(0);
      expect(r.latency_ms.max).toBeGreaterThanOrEqual(1000);
      expect(r.verdict.pass).toBe(false);
      expect(r.verdict.reasons.join('\n')).toMatch(/exceeded the 1000 ms timeout budget/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('histograms survive encoding', () => {
    const h = newHistogram();
    for (let i = 1; i <= 1000; i++) h.recordValue(i * 10);
    const back = decodeHistogram(encodeHistogram(h));
    expect(summarise(back)).toEqual(summarise(h));
    // Past 2.048 ms a bucket is 2 us wide and the encoding keeps buckets, not the exact minimum: the
    // summary's min is the bucket's lowest value, so a decoded (merged) histogram summarises the same.
    const odd = newHistogram();
    for (const us of [2049, 2051, 7777, 123_457]) odd.recordValue(us);
    const oddBack = decodeHistogram(encodeHistogram(odd));
    expect(summarise(oddBack)).toEqual(summarise(odd));
    expect(summarise(odd).min).toBe(2.048);
    expect(summarise(odd).max).toBeGreaterThanOrEqual(123.457);
  });
});

describe('load: CLI', () => {
  it('an unmeetable threshold exits 1 with the reason; results merge through files', async () => {
    const r = await cli(['load', 'user-read', '--duration', '1', '--connections', '2', '--rps-min', '10000000', '--out', 'a.json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL/);
    expect(r.stdout).toMatch(/< --rps-min 10000000/);
    const a = JSON.parse(await readFile(join(r.cwd, 'a.json'), 'utf8')) as LoadResult;
    expect(a.verdict.pass).toBe(false);
    expect(JSON.stringify(a)).not.toMatch(/eyJ|client_secret|Bearer/);
    const m = await main(['load', 'merge', join(r.cwd, 'a.json'), join(r.cwd, 'a.json'), '--out', join(r.cwd, 'm.json')], { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: r.cwd });
    expect(m).toBe(0);
    const merged = JSON.parse(await readFile(join(r.cwd, 'm.json'), 'utf8')) as LoadResult;
    expect(merged.counts.responses).toBe(2 * a.counts.responses);
    expect(merged.latency_ms.p99).toBe(a.latency_ms.p99);
  });

  it('refuses a non-loopback target unless --allow-remote (exit 2, before any traffic)', async () => {
    const r = await cli(['load', 'user-read', '--target', 'http://example.com'], { BAAS_CLIENT_ID: 'id', BAAS_CLIENT_SECRET: 'top-secret-value' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not loopback/);
    expect(r.stderr).toMatch(/targets you own/);
    expect(r.stderr).toMatch(/--allow-remote/);
    expect(r.stderr).not.toMatch(/top-secret-value/);
    for (const h of ['127.0.0.1', '127.9.8.7', 'localhost', '[::1]', '::1', '::ffff:127.0.0.1']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['10.0.0.1', '128.0.0.1', 'example.com', 'localhost.example.com', '::2', '0.0.0.0']) expect(isLoopbackHost(h)).toBe(false);
  });

  it('an unreachable loopback target exits 3; bad bounds exit 2', async () => {
    const env = { BAAS_CLIENT_ID: 'id', BAAS_CLIENT_SECRET: 'top-secret-value' };
    expect((await cli(['load', 'user-read', '--target', 'http://127.0.0.1:1'], env)).code).toBe(3);
    expect((await cli(['load', 'user-read', '--target', 'http://127.0.0.1:1', '--duration', '301'], env)).code).toBe(2);
    expect((await cli(['load', 'user-read', '--target', 'http://127.0.0.1:1', '--connections', '0'], env)).code).toBe(2);
    expect((await cli(['load', 'nope'], env)).code).toBe(2);
    expect((await cli(['load', 'merge', 'only-one.json'], env)).code).toBe(2);
  });
});

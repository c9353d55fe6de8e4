// The coordinator accepts only the shards of its run (token, plan digest, split), bounds what they
// send (bytes, keys, seconds, report count), serves the merged run to Prometheus, and a shard whose
// coordinator is lost keeps to the plan's duration and says so. In-process, on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoordinatorRefusedError } from '../../errors/index.ts';
import { encodeHistogram, newHistogram } from '../histogram.ts';
import type { LoadPlan } from '../plan.ts';
import { stallTarget, type StallTarget } from '../testing.ts';
import { COORDINATOR_LIMITS, planDigest, runCoordinatedShard, startCoordinator, type Coordinator } from './index.ts';

const TOKEN = 'protocol-test-token-0123456789';
const plan = (over: Partial<LoadPlan> = {}): LoadPlan => ({ scenarios: [{ name: 'user-read' }], arrival_rate: 20, duration: 1, timeout_ms: 1000, drain_ms: 500, thresholds: { run: ['p99 < 500'] }, ...over }) as LoadPlan;

const post = async (c: Coordinator, path: string, body: unknown, token = TOKEN) => {
  const res = await fetch(`${c.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  return { status: res.status, json: (await res.json()) as { error?: string; start_in_ms?: number; stop?: string } };
};

const hist = (...us: number[]) => {
  const h = newHistogram();
  for (const v of us) h.recordValue(v);
  return encodeHistogram(h);
};
const report = (shard: number, seq: number, over: Record<string, unknown> = {}) => ({ shard, seq, at_ms: seq * 1000, seconds: [{ s: 0, hist: hist(1000, 2000), completed: 2, errors: 0, timeouts: 0 }], requests: { getUserV1: { '200': 15 } }, findings: {}, judged: 2, answers: 2, late_sends: 1, ...over });

describe('coordinator protocol', () => {
  let c: Coordinator;
  const digest = planDigest(plan());
  beforeAll(async () => {
    c = await startCoordinator({ shards: 2, plan: plan(), planFile: 'plan.yaml', token: TOKEN, joinTimeoutMs: 60_000 });
  });
  afterAll(() => c.close());

  it('names the plan by content, not by formatting or key order', () => {
    expect(planDigest({ b: 1, a: [{ y: 2, x: 1 }] })).toBe(planDigest({ a: [{ x: 1, y: 2 }], b: 1 }));
    expect(planDigest(plan({ duration: 2 }))).not.toBe(digest);
  });

  it('refuses what is not a shard of this run', async () => {
    const join = (index: number, total = 2, d = digest) => ({ version: 1, shard: { index, total }, plan_digest: d, machine: 'm' });
    expect((await post(c, '/v1/join', join(1), 'wrong-token')).status).toBe(401);
    const other = await post(c, '/v1/join', join(1, 2, planDigest(plan({ arrival_rate: 21 }))));
    expect(other.status).toBe(409);
    expect(other.json.error).toMatch(/plan digest .* is not this run's/);
    expect((await post(c, '/v1/join', join(3, 3))).status).toBe(409);
    expect((await post(c, '/v1/join', { ...join(1), version: 99 })).status).toBe(400);
    expect((await post(c, '/v1/join', 'x'.repeat(COORDINATOR_LIMITS.maxReportBytes + 1))).status).toBe(413);
    expect((await post(c, '/v1/report', report(1, 1))).status).toBe(409); // not started
    // A shard process with another plan is refused at once (exit 2), not retried.
    await expect(runCoordinatedShard({ url: c.url, token: TOKEN, planDigest: 'sha256:other' }, { scenario: 'user-read', profile: undefined as never, shard: { index: 1, total: 2 } })).rejects.toThrow(CoordinatorRefusedError);
  });

  it('bounds reports, adds them into one merged run and serves it to Prometheus', async () => {
    // A join whose connection broke before the start is replaced by the shard's next join.
    await expect(fetch(`${c.url}/v1/join`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ version: 1, shard: { index: 1, total: 2 }, plan_digest: digest, machine: 'a' }), signal: AbortSignal.timeout(300) })).rejects.toThrow();
    const joins = [post(c, '/v1/join', { version: 1, shard: { index: 1, total: 2 }, plan_digest: digest, machine: 'a' }), post(c, '/v1/join', { version: 1, shard: { index: 2, total: 2 }, plan_digest: digest, machine: 'b' })];
    const [a, b] = await Promise.all(joins);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await post(c, '/v1/join', { version: 1, shard: { index: 1, total: 2 }, plan_digest: digest, machine: 'a' })).status).toBe(409); // joined twice
    expect((await post(c, '/v1/report', report(1, 1))).status).toBe(200);
    expect((await post(c, '/v1/report', report(2, 1))).status).toBe(200);
    const tooMany = report(1, 2, { seconds: Array.from({ length: COORDINATOR_LIMITS.maxSeconds + 1 }, (_, s) => ({ s, hist: '', completed: 0, errors: 0, timeouts: 0 })) });
    expect((await post(c, '/v1/report', tooMany)).status).toBe(400);
    expect((await post(c, '/v1/report', report(1, 2, { seconds: [{ s: 100_000, hist: '', completed: 0, errors: 0, timeouts: 0 }] }))).json.error).toMatch(/past the run's last second/);
    expect((await post(c, '/v1/report', report(1, 2, { late_sends: -1 }))).status).toBe(400);
    expect((await post(c, '/v1/report', report(1, 2, { requests: Object.fromEntries(Array.from({ length: COORDINATOR_LIMITS.maxOperations + 1 }, (_, i) => [`op${i}`, {}])) }))).status).toBe(400);
    expect((await post(c, '/v1/report', report(1, 2, { shard: 7 }))).status).toBe(409);
    const text = await (await fetch(`${c.url}/metrics`)).text();
    // Two shards' deltas, added: 15 + 15 requests, 1 + 1 late sends, 4 samples.
    expect(text).toMatch(/baas_load_requests_total\{operation="getUserV1",status="200"\} 30/);
    expect(text).toMatch(/baas_load_late_sends_total 2/);
    expect(text).toMatch(/baas_coordinator_shards\{state="joined"\} 2/);
    expect(text).toMatch(/baas_load_threshold_value\{threshold="p99 < 500"\} 2/);
    expect(text).toMatch(/baas_load_threshold_pass\{threshold="p99 < 500"\} 1/);
    // A shard that sends more reports than its run can take is cut off.
    let last = 200;
    for (let seq = 2; seq < 2000 && last === 200; seq++) last = (await post(c, '/v1/report', report(2, seq, { seconds: [] }))).status;
    expect(last).toBe(429);
  });
});

describe('a shard whose coordinator is lost', () => {
  let t: StallTarget;
  beforeAll(async () => {
    t = await stallTarget({ delayFor: () => 0 });
  });
  afterAll(() => t.close());

  it('keeps to the plan duration, sends every request of its schedule and says so', async () => {
    const p = plan({ duration: 3 });
    const c = await startCoordinator({ shards: 1, plan: p, planFile: 'plan.yaml', token: TOKEN, intervalMs: 100, onEvent: (line) => void (line.includes('first report') && c.close()) });
    const r = await runCoordinatedShard({ url: c.url, token: TOKEN, planDigest: planDigest(p) }, { scenario: 'user-read', profile: t.profile, arrivalRate: 20, durationSec: 3, timeoutMs: 1000, drainMs: 500, shard: { index: 1, total: 1 }, thresholds: { rules: [{ expr: 'p99 < 0.001', metric: 'p99', op: '<', value: 0.001, abort_on_fail: true, grace_s: 0 }] } });
    expect(r.aborted).toBeUndefined(); // its abort_on_fail rule is the coordinator's to judge
    expect(r.counts.attempts).toBe(60);
    expect(r.notes.join('\n')).toMatch(/coordinator http:\/\/127\.0\.0\.1:\d+ lost at [0-9.]+ s .*kept to the plan's duration/);
    expect(r.verdict.outcome).toBe('fail'); // p99 < 1 us still judges the result at the end
    expect((await c.done).outcome).toBe('inconclusive');
  }, 60_000);

  it('gives up joining a coordinator that is not there, within its bound', async () => {
    await expect(runCoordinatedShard({ url: 'http://127.0.0.1:9', token: TOKEN, planDigest: 'x', joinTimeoutMs: 1500 }, { scenario: 'user-read', profile: t.profile })).rejects.toThrow(/could not join .* within 2 s/);
  });
});

describe('findings by rule, streamed', () => {
  let t: StallTarget;
  beforeAll(async () => {
    // Every 7th GET answers a body off its schema: findings on every shard.
    t = await stallTarget({ delayFor: () => 0, fault: (n, req) => (req.method === 'GET' && n % 7 === 0 ? { status: 200, body: '{"id":42}' } : undefined) });
  });
  afterAll(() => t.close());

  it('the live findings equal those of the merged results, and the verdict names the rule', async () => {
    const p = plan({ duration: 2 });
    const c = await startCoordinator({ shards: 2, plan: p, planFile: 'plan.yaml', token: TOKEN, intervalMs: 250 });
    const link = { url: c.url, token: TOKEN, planDigest: planDigest(p) };
    const shards = [1, 2].map((index) => runCoordinatedShard(link, { scenario: 'user-read', profile: t.profile, arrivalRate: 10, durationSec: 2, timeoutMs: 1000, drainMs: 500, shard: { index, total: 2 } }));
    const results = await Promise.all(shards);
    const run = await c.done;
    await c.close();
    const merged = run.result!.conformance!;
    expect(merged.findings).toBeGreaterThan(0);
    expect(merged.findings).toBe(results.reduce((n, r) => n + r.conformance!.findings, 0));
    expect(run.live.findings).toBe(merged.findings);
    expect(run.live.judged).toBe(merged.judged);
    expect(run.outcome).toBe('fail');
    expect(run.result!.verdict.reasons.join('\n')).toMatch(/conformance_errors \d+ > 0 .*ENDPOINT-RESPONSE-SCHEMA on getUserV1|conformance_errors \d+ > 0 .*on getUserV1/);
  }, 60_000);
});

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN, readAuditPlan, resolvePlan } from './plan.ts';
import { FaultSchedule } from './schedule.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('audit plan', () => {
  it('examples/clients/plan.yaml is the default plan; the real-time plan validates', async () => {
    expect(await readAuditPlan(path.join(root, 'examples/clients/plan.yaml'))).toEqual(DEFAULT_PLAN);
    expect((await readAuditPlan(path.join(root, 'examples/clients/real-time-plan.yaml'))).scale.request_timeout_seconds).toBe(30);
  });

  it.each([
    [{ scale: { bogus: 1 } }, /\/scale: unknown property "bogus"/],
    [{ token_bursts: [{ at_token_call: 1, length: 2 }] }, /\/token_bursts\/0\/length/],
    [{ token_bursts: [{ at_token_call: 1, length: 3 }] }, /\/token_bursts\/0\/length/], // the backoff judge needs a 4th wait
    [{ stall: { seconds: 1 } }, /must outlast the timeout/],
    // A burst on the token call the default plan answers with Retry-After.
    [{ token_bursts: [{ at_token_call: DEFAULT_PLAN.retry_after.find((r) => r.on === 'token')!.at_call, length: 4 }] }, /same token call/],
  ])('refuses %j naming where', async (raw, message) => {
    await expect(resolvePlan(raw)).rejects.toThrow(message);
  });

  it('a bad YAML file is a usage error naming the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'plan-'));
    await writeFile(path.join(dir, 'p.yaml'), 'seed: [\n');
    await expect(readAuditPlan(path.join(dir, 'p.yaml'))).rejects.toMatchObject({ code: 'BAAS_AUDIT_PLAN_INVALID', message: expect.stringMatching(/p\.yaml.*invalid YAML/) });
  });

  it('the same seed meets the same calls with the same conditions', () => {
    const calls = [...Array(12)].map((_, i) => ({ isToken: i % 4 === 0, method: i % 3 === 0 ? 'GET' : 'POST', path: `/p${i % 5}` }));
    const run = () => { const s = new FaultSchedule(DEFAULT_PLAN); return calls.map((c) => JSON.stringify(s.decide(c) ?? null)); };
    expect(run()).toEqual(run());
    const other = new FaultSchedule({ ...DEFAULT_PLAN, seed: 7 });
    expect(calls.map((c) => JSON.stringify(other.decide(c) ?? null))).toHaveLength(12);
  });

  it('a burst meets one logical call and its retries, then lets the next attempt through', () => {
    const s = new FaultSchedule({ ...DEFAULT_PLAN, token_bursts: [{ at_token_call: 1, length: 3 }], retry_after: [] });
    const token = { isToken: true, method: 'POST', path: '/t' };
    expect([1, 2, 3, 4].map(() => s.decide(token)?.kind)).toEqual(['rate-limit', 'rate-limit', 'rate-limit', undefined]);
  });
});

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
    [{ token_bursts: [{ at_token_call: 1, length: 0 }] }, /\/token_bursts\/0\/length/],
    [{ token_bursts: [{ at_token_call: 1, length: 11 }] }, /\/token_bursts\/0\/length/],
    [{ stall: { seconds: 1 } }, /must outlast the timeout/],
    // A Retry-After on the token call the default plan's short first burst starts on.
    [{ retry_after: [{ on: 'token', at_call: DEFAULT_PLAN.token_bursts[0].at_token_call, seconds: 2 }] }, /same token call/],
    // Scaled together: a Retry-After as long as the buffer.
    [{ retry_after: [{ on: 'other', at_call: 2, seconds: DEFAULT_PLAN.scale.refresh_buffer_seconds }] }, /refresh_buffer_seconds.*longer than every Retry-After/],
    [{ token_bursts: [{ at_token_call: 1, length: 2, retry_after_seconds: 5 }] }, /longer than every Retry-After \(5 s\)/],
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

  it('the short first burst ends on a 429 with Retry-After; any token request after a 429 continues a burst, whoever sends it', () => {
    const s = new FaultSchedule(DEFAULT_PLAN);
    // A library that retries and an application that asks again on its next step look alike: consecutive token requests.
    const token = { isToken: true, method: 'POST', path: '/t' };
    const first = DEFAULT_PLAN.token_bursts[0];
    expect([1, 2, 3].map(() => s.decide(token))).toEqual([{ kind: 'rate-limit', burst: 'token-1' }, { kind: 'rate-limit', burst: 'token-1', retryAfter: first.retry_after_seconds }, undefined]);
    // The next fresh token request (a renewal) meets the first long burst.
    const second = DEFAULT_PLAN.token_bursts[1];
    const renewal = Array.from({ length: second.length + 1 }, () => s.decide(token)?.kind);
    expect(renewal).toEqual([...Array(second.length).fill('rate-limit'), undefined]);
  });

  it('a burst meets one logical call and its retries, then lets the next attempt through', () => {
    const s = new FaultSchedule({ ...DEFAULT_PLAN, token_bursts: [{ at_token_call: 1, length: 3 }], retry_after: [] });
    const token = { isToken: true, method: 'POST', path: '/t' };
    expect([1, 2, 3, 4].map(() => s.decide(token)?.kind)).toEqual(['rate-limit', 'rate-limit', 'rate-limit', undefined]);
  });
});

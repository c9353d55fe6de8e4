// The per-check time limit follows the target's latency, and a request timeout is the budget rule's
// failure, not the check's own rules. Loopback targets; small budgets with wide margins.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Check } from '../checks/types.ts';
import type { Model, Rule, RuleId } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import { runChecks } from './index.ts';
import { TIME_LIMIT, allowedCheckMs } from './time-limit.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** Answers /slow after `delayMs`, never answers /stall. */
async function slowTarget(delayMs: number): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/stall') return;
    setTimeout(() => res.end('{}'), delayMs);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const rule = (id: string, extra: object = {}) => ({ id, kind: 'limit', section: '8', summary: id, operations: [], testable: true, source: { file: 'rules/x.yaml', pointer: '' }, ...extra }) as unknown as Rule;
const budget = rule('LIMIT-REQUEST-TIMEOUT', { value: 30 });
const mine = rule('SCHEMA-X');
const model = { rules: [budget, mine], limits: { request_timeout: budget }, operations: new Map(), validator: () => undefined, requestTimeoutMs: () => 30_000 } as unknown as Model;

function check(id: string, run: Check['run']): Check {
  return { id, title: id, area: 'schema', section: '4', rules: ['SCHEMA-X'] as unknown as RuleId[], safe: true, run };
}

async function run(url: string, checks: Check[], extra: object = {}) {
  const profile = resolveProfile({ base_url: url, clients: [{ client_id: 'c', client_secret: 's-secret' }] }, { env: {} });
  return runChecks({ profile, model, preflight: false, concurrency: 2, ...extra }, checks, []);
}

describe('per-check time limit', () => {
  it('grows with time spent waiting on slow answers, bounded', () => {
    expect(allowedCheckMs(1000, 0)).toBe(1000);
    expect(allowedCheckMs(1000, 10 * (300 - TIME_LIMIT.fastMs))).toBe(1000 + 10 * (300 - TIME_LIMIT.fastMs));
    expect(allowedCheckMs(1000, 1e9)).toBe(1000 * TIME_LIMIT.maxFactor);
  });

  it('sums slow waiting per answer: many fast calls do not cancel a few slow ones', async () => {
    // 40 answers: every 8th takes 600 ms, the rest are immediate. 5 slow answers = 2.5 s of excess.
    let n = 0;
    const server = createServer((_req, res) => void setTimeout(() => res.end('{}'), ++n % 8 === 0 ? 600 : 0));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let slowMs = 0;
    const outcome = await run(url, [
      check('schema.mostly-fast', async (ctx) => {
        for (let i = 0; i < 40; i++) await ctx.http.send({ path: '/x' });
        slowMs = (ctx.http as unknown as { slowMs: number }).slowMs;
      }),
    ], { checkTimeoutMs: 3000, concurrency: 1 });
    // Total waiting minus 100 ms per request would leave about 3 s - 4 s = 0 of extension; per answer it is ~2.5 s.
    // The base limit leaves the 35 fast calls seconds of room, so a loaded machine does not time the check out.
    expect(slowMs).toBeGreaterThan(5 * (600 - TIME_LIMIT.fastMs) * 0.9);
    expect(outcome.results[0].verdict).toBe('pass');
  });

  it('lets a check of many slow-but-answering calls finish, and still stops a check that idles', async () => {
    const url = await slowTarget(400);
    const outcome = await run(url, [
      check('schema.many-slow', async (ctx) => {
        for (let i = 0; i < 5; i++) await ctx.http.send({ path: '/slow' }); // ~2 s of answers, limit 1 s
      }),
      check('schema.idle', (ctx) => new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 3000); // no requests: the limit stays 1 s
        ctx.signal.addEventListener('abort', () => (clearTimeout(t), resolve()));
      })),
    ], { checkTimeoutMs: 1000 });
    const byId = new Map(outcome.results.map((r) => [r.checkId, r]));
    expect(byId.get('schema.many-slow')?.verdict).toBe('pass');
    expect(byId.get('schema.idle')?.verdict).toBe('fail');
    expect(byId.get('schema.idle')?.failure?.cause).toBe('CHECK_TIMEOUT');
  });

  it('credits a request timeout to the section 8 budget rule, not to the check\'s own rule', async () => {
    const url = await slowTarget(0);
    const outcome = await run(url, [check('schema.stalled', async (ctx) => void (await ctx.http.send({ path: '/stall' })))], { timeoutBudgetMs: 300 });
    const r = outcome.results[0];
    expect(r.verdict).toBe('fail');
    expect(r.failure?.cause).toBe('TIMEOUT');
    expect(r.failure?.rules).toEqual(['LIMIT-REQUEST-TIMEOUT']);
    const verdict = new Map(outcome.rules.map((v) => [v.id, v.verdict]));
    expect(verdict.get('LIMIT-REQUEST-TIMEOUT')).toBe('fail');
    expect(verdict.get('SCHEMA-X')).not.toBe('fail');
  });
});

// Blocked and warn outcomes on a real loopback target: a check whose setup step (tokenize) fails is
// blocked by that operation's rule; the same check passes when tokenization works (so "blocked" is
// not unconditional). Warnings never change the exit code unless strict.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { field } from '../checks/body.ts';
import { expectPrerequisite2xx, ownStep, prerequisite } from '../checks/prerequisite.ts';
import type { Check, CheckContext } from '../checks/types.ts';
import type { Model, Rule, RuleId } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import { runChecks } from './index.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** Token endpoint answers; /tok answers `tokStatus` (404: the tokenization endpoint is missing); /recipients answers 201. */
async function target(tokStatus: number): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/token') return res.end('{"access_token":"t-123456","expires_at":1}');
      if (req.url === '/tok') {
        res.statusCode = tokStatus;
        return res.end(tokStatus === 200 ? '{"card_token":"ct_1"}' : '{"error_reason":"ErrorNotFound"}');
      }
      res.statusCode = 201;
      res.end('{"id":"r1"}');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const rule = (id: string, kind: Rule['kind'], operations: string[]): Rule =>
  ({ id, kind, section: '4', summary: id, operations, testable: true, source: { file: 'rules/x.yaml', pointer: '' } }) as Rule;

const RULES = [
  rule('R-FLOW', 'endpoint', ['tokenizeCard', 'createRecipientV2']),
  rule('R-TOKEN-ERR', 'error', ['tokenizeCard']),
  rule('R-ALIAS', 'alias', ['createRecipientV2']),
  rule('R-SCHEMA', 'endpoint', []),
  rule('R-WARN', 'limit', []),
];
const model = { rules: RULES, operations: new Map(), validator: () => undefined, requestTimeoutMs: () => 30_000 } as unknown as Model;

async function tokenize(ctx: CheckContext): Promise<string> {
  const res = await ctx.http.send({ method: 'POST', path: '/tok', body: {} });
  expectPrerequisite2xx(res, 'tokenizeCard', 'POST /tok');
  const token = field(res.json, 'card_token');
  prerequisite(token, 'tokenizeCard', 'no card_token', { response: res });
  return String(token);
}

// Synthetic rule ids are cast: these tests exercise the runner, not the project's spec.
const check = (id: string, rules: string[], run: Check['run']): Check => ({ id, title: id, area: id.split('.')[0], section: '4', rules: rules as RuleId[], safe: true, run });

const CHECKS = [
  // Dependent checks: tokenize is setup for them.
  check('schema.create-recipient', ['R-SCHEMA'], async (ctx) => {
    await tokenize(ctx);
    await ctx.http.send({ method: 'POST', path: '/recipients', body: {} });
  }),
  check('aliases.recipient', ['R-ALIAS'], async (ctx) => void (await tokenize(ctx))),
  // The flow's own rule lists tokenizeCard: a tokenize failure is its own failure.
  check('transfers.flow', ['R-FLOW'], async (ctx) => void (await tokenize(ctx))),
  // Tokenize is the subject of this schema check.
  check('schema.tokenize', ['R-SCHEMA'], async (ctx) => void (await ownStep('tokenizeCard', () => tokenize(ctx)))),
  check('limits.retry-after', ['R-WARN'], async (ctx) => ctx.warn('429 without Retry-After')),
];

function run(url: string, extra: object = {}) {
  const profile = resolveProfile({ base_url: url, clients: [{ client_id: 'c1', client_secret: 'secret-one' }] }, { env: {} });
  return runChecks({ profile, model, seed: 1, ...extra }, CHECKS, []);
}

describe('blocked', () => {
  it('reports dependent checks as blocked by the tokenization rule, and counts one root cause', async () => {
    const out = await run(await target(404));
    const by = Object.fromEntries(out.results.map((r) => [r.checkId, r]));
    expect(by['schema.create-recipient'].verdict).toBe('blocked');
    expect(by['schema.create-recipient'].blocked).toMatchObject({ operation: 'tokenizeCard', rules: ['R-FLOW'] });
    expect(by['schema.create-recipient'].blocked?.message).toContain('got HTTP 404');
    expect(by['schema.create-recipient'].blocked?.exchange?.response?.status).toBe(404);
    // It stopped at the failed step: the recipient call was never made.
    expect(by['schema.create-recipient'].requests).toBe(1);
    expect(by['aliases.recipient']).toMatchObject({ verdict: 'blocked', blocked: { operation: 'tokenizeCard', rules: ['R-FLOW'] } });
    expect(by['transfers.flow']).toMatchObject({ verdict: 'fail', failure: { operation: 'tokenizeCard', rules: ['R-FLOW'] } });
    expect(by['schema.tokenize']).toMatchObject({ verdict: 'fail', failure: { operation: 'tokenizeCard' } });
    // Root causes: the two own failures on tokenizeCard are one cause, which explains both blocked checks.
    expect(out.rootCauses).toHaveLength(1);
    expect(out.rootCauses[0]).toMatchObject({ kind: 'failure', operation: 'tokenizeCard', checks: ['transfers.flow', 'schema.tokenize'], blocked: ['schema.create-recipient', 'aliases.recipient'] });
    expect(out.summary).toMatchObject({ rootCauses: 1, failed: 2, blocked: 2, passed: 1, warned: 1 });
    const rules = Object.fromEntries(out.rules.map((r) => [r.id, r]));
    expect(rules['R-FLOW'].verdict).toBe('fail');
    // Blocked rules read "not observed because", not failed; error rows are never blamed for a setup call.
    expect(rules['R-ALIAS']).toMatchObject({ verdict: 'blocked', reason: 'aliases.recipient: blocked by tokenizeCard (R-FLOW)' });
    expect(rules['R-TOKEN-ERR'].verdict).toBe('uncovered');
    expect(out.exitCode).toBe(1);
    expect(out.exitReasons).toEqual(['2 checks failed', '2 checks blocked by a failed prerequisite']);
  });

  it('with only dependent checks, the blocking operation is the root cause and the run still exits 1', async () => {
    const url = await target(404);
    const profile = resolveProfile({ base_url: url, clients: [{ client_id: 'c1', client_secret: 'secret-one' }] }, { env: {} });
    const out = await runChecks({ profile, model, seed: 1, checkIds: ['schema.create-recipient', 'aliases.recipient'] }, CHECKS, []);
    expect(out.results.map((r) => r.verdict)).toEqual(['blocked', 'blocked']);
    expect(out.rootCauses).toEqual([
      expect.objectContaining({ kind: 'blocking', id: 'tokenizeCard', rules: ['R-FLOW'], checks: [], blocked: ['schema.create-recipient', 'aliases.recipient'] }),
    ]);
    // The operation's rule fails even though its own check did not run: a prerequisite observed it failing.
    expect(out.rules.find((r) => r.id === 'R-FLOW')?.verdict).toBe('fail');
    expect(out.exitCode).toBe(1);
  });

  it('the same checks pass when tokenization works', async () => {
    const out = await run(await target(200));
    expect(out.results.map((r) => [r.checkId, r.verdict])).toEqual([
      ['schema.create-recipient', 'pass'],
      ['aliases.recipient', 'pass'],
      ['transfers.flow', 'pass'],
      ['schema.tokenize', 'pass'],
      ['limits.retry-after', 'pass'],
    ]);
    expect(out.rootCauses).toEqual([]);
  });
});

describe('warn', () => {
  it('records warnings apart; exit 0 unless strict', async () => {
    const url = await target(200);
    const out = await run(url, { checkIds: ['limits.*'] });
    expect(out.results[0]).toMatchObject({ verdict: 'pass', warnings: ['429 without Retry-After'] });
    expect(out.summary.warned).toBe(1);
    expect(out.exitCode).toBe(0);
    const strict = await run(url, { checkIds: ['limits.*'], strict: true });
    expect(strict.exitCode).toBe(1);
    expect(strict.exitReasons).toEqual(['--strict: 1 check warned']);
  });
});

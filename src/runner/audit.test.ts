// The runner audits every answer a check received: a check that asserts nothing about an
// intermittently wrong error answer still fails, naming the section 7 rule (not its own); a check that
// fails on its own rule still reports a bad answer it received, under the audit's rule.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { Check } from '../checks/types.ts';
import type { Model, Rule, RuleId } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import { runChecks } from './index.ts';
import { CheckFailure } from '../checks/signals.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const rule = (id: string) => ({ id, kind: 'general', section: '7', summary: id, operations: [], testable: true, source: { file: 'rules/x.yaml', pointer: '' } }) as unknown as Rule;
const validator = Object.assign((b: any) => typeof b?.error_reason === 'string' && typeof b?.error_category === 'object', { errors: [] });
const model = {
  rules: [rule('ERR-CATEGORY-STATUS'), rule('ERR-BODY-SHAPE'), rule('MINE')],
  limits: {},
  operations: new Map([['getThing', { operationId: 'getThing', method: 'GET', path: '/thing', server: 'api', pathUnspecified: false }]]),
  validator: () => undefined,
  requestTimeoutMs: () => 30_000,
  errorBodyValidator: validator,
  categoryFor: (s: number) => (s === 401 ? 'CategoryUnauthorized' : s === 400 ? 'CategoryValidationFailure' : null),
} as unknown as Model;

it('fails a check on the one wrong answer among five it did not assert on, naming ERR-CATEGORY-STATUS', async () => {
  let n = 0;
  const server = createServer((_req, res) => {
    n++;
    res.writeHead(401, { 'content-type': 'application/json' });
    // Every fifth answer carries the category of a 400.
    res.end(JSON.stringify({ error_reason: 'ErrorPermissionDenied', error_description: 'x', error_category: { category: n % 5 === 0 ? 'CategoryValidationFailure' : 'CategoryUnauthorized', http_status_code: 401 } }));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const profile = resolveProfile({ base_url: url, clients: [{ client_id: 'c', client_secret: 's-secret' }] }, { env: {} });
  const check = (id: string, calls: number): Check => ({
    id, title: id, area: 'x', section: '7', rules: ['MINE'] as unknown as RuleId[], safe: true,
    run: async (ctx) => {
      for (let i = 0; i < calls; i++) await ctx.http.send({ op: 'getThing' as never });
    },
  });
  const outcome = await runChecks({ profile, model, preflight: false, concurrency: 1 }, [check('x.four', 4), check('x.six', 6)], []);
  const byId = new Map(outcome.results.map((r) => [r.checkId, r]));
  expect(byId.get('x.four')?.verdict).toBe('pass');
  expect(byId.get('x.six')?.verdict).toBe('fail');
  expect(byId.get('x.six')?.failure?.rules).toEqual(['ERR-CATEGORY-STATUS']);
  // Attributed as what it is: the check's own assertions held; the answer of the named operation
  // breaks a rule every answer is held to (a setup step's answer reads the same way).
  expect(byId.get('x.six')?.failure?.message).toMatch(/^the check's own assertions held, but an answer it received from getThing \(GET \/thing\) breaks ERR-CATEGORY-STATUS, which every answer is held to whatever the check is about/);
});

it('a check failing on its own rule still reports a bad answer it received, under ENDPOINT-RESPONSE-SCHEMA', async () => {
  let n = 0;
  const server = createServer((_req, res) => {
    n++;
    res.writeHead(200, { 'content-type': 'application/json' });
    // The second answer lacks the required id: a schema fault the check itself never looks at.
    res.end(JSON.stringify(n === 2 ? {} : { id: `thing-${n}` }));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const profile = resolveProfile({ base_url: url, clients: [{ client_id: 'c', client_secret: 's-secret' }] }, { env: {} });
  const schema = Object.assign((b: any) => typeof b?.id === 'string', { errors: [{ instancePath: '', message: "must have required property 'id'" }] });
  const withSchema = { ...model, rules: [...model.rules, rule('ENDPOINT-RESPONSE-SCHEMA')], validator: (k: string) => (k === 'getThing:2XX' ? schema : undefined) } as unknown as Model;
  const check: Check = {
    id: 'x.own-failure', title: 'x', area: 'x', section: '7', rules: ['MINE'] as unknown as RuleId[], safe: true,
    run: async (ctx) => {
      for (let i = 0; i < 3; i++) await ctx.http.send({ op: 'getThing' as never });
      throw new CheckFailure('the thing is wrong in a way only this check knows', { rules: ['MINE'] as unknown as RuleId[] });
    },
  };
  const outcome = await runChecks({ profile, model: withSchema, preflight: false, concurrency: 1 }, [check], []);
  const failure = outcome.results[0].failure!;
  // The check's own failure stays first and named...
  expect(failure.rules).toEqual(['MINE']);
  expect(failure.rulesNamed).toBe(true);
  expect(failure.message.startsWith('the thing is wrong')).toBe(true);
  // ...and the audit's finding is reported under its own rule, which fails too.
  expect(failure.audit?.rules).toEqual(['ENDPOINT-RESPONSE-SCHEMA']);
  expect(failure.message).toContain("must have required property 'id'");
  expect(outcome.rules.find((r) => r.id === 'ENDPOINT-RESPONSE-SCHEMA')?.verdict).toBe('fail');
  expect(outcome.rules.find((r) => r.id === 'MINE')?.verdict).toBe('fail');
});

it('blocks a check whose operation redirects to its own path with the trailing slash toggled (a framework route, not an answer), naming no rule', async () => {
  const server = createServer((_req, res) => {
    res.writeHead(308, { location: '/thing/' });
    res.end();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const profile = resolveProfile({ base_url: url, clients: [{ client_id: 'c', client_secret: 's-secret' }] }, { env: {} });
  const check: Check = {
    id: 'x.slash', title: 'x', area: 'x', section: '7', rules: ['MINE'] as unknown as RuleId[], safe: true,
    run: async (ctx) => {
      const res = await ctx.http.send({ op: 'getThing' as never });
      throw new CheckFailure(`expected 200, got ${res.status}`, { rules: ['MINE'] as unknown as RuleId[] });
    },
  };
  const outcome = await runChecks({ profile, model, preflight: false, concurrency: 1 }, [check], []);
  expect(outcome.results[0].verdict).toBe('blocked');
  expect(outcome.results[0].blocked).toMatchObject({ operation: 'getThing', rules: [] });
  expect(outcome.results[0].blocked?.message).toMatch(/^SLASH_REDIRECT: .*HTTP 308 .*\/thing\/, the same path with a trailing slash.*framework-routes/);
});

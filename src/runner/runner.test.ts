import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { expectStatus } from '../checks/assert.ts';
import { checkProperty } from '../checks/property.ts';
import type { Check } from '../checks/types.ts';
import { CredentialsError, ServiceRegistrationError, TargetUnreachableError } from '../errors/index.ts';
import type { Reporter, RunEvent } from '../events/index.ts';
import type { Model, Rule, RuleId } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { parseShard } from '../options/index.ts';
import { ConfigError } from '../errors/index.ts';
import { deriveSeed, matchesPattern, NO_CONTROL, runChecks, selectChecks } from './index.ts';
import { NO_WEBHOOK_ROUTE } from './services.ts';
import { byCost } from './run.ts';
import { field } from '../checks/body.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A tiny loopback target: the token endpoint answers, other paths go to `handler`. */
async function target(handler: Handler = (_q, res) => res.end('{}'), tokenStatus = 200): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/api/v1/token' && req.method === 'POST') {
        res.writeHead(tokenStatus, { 'content-type': 'application/json' });
        res.end(tokenStatus === 200 ? '{"access_token":"tok-preflight-123","token_type":"Bearer","expires_at":1}' : '{}');
        return;
      }
      handler(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function rule(id: string, extra: Partial<Rule> = {}): Rule {
  return { id, kind: 'general', section: '7', summary: `rule ${id}`, operations: [], testable: true, source: { file: 'rules/x.yaml', pointer: '' }, ...extra } as Rule;
}

// The control operations come from spec/control.yaml itself (paths only; no $refs are followed here).
const controlDoc = parseYaml(readFileSync(new URL('../../spec/control.yaml', import.meta.url), 'utf8'));

function model(rules: Rule[] = []): Model {
  return {
    rules,
    control: controlDoc,
    operations: new Map([['blockCard', { operationId: 'blockCard', method: 'post', path: '/x', server: 'api', pathUnspecified: true }]]),
    validator: () => undefined,
    requestTimeoutMs: () => 30_000,
  } as unknown as Model;
}

function profile(baseUrl: string, extra: object = {}): ResolvedProfile {
  return resolveProfile({ base_url: baseUrl, clients: [{ client_id: 'c1', client_secret: 'secret-one' }], ...extra }, { env: {} });
}

/** A check over synthetic rule ids (R1, R-PASS, ...): the runner must not depend on the project's spec, so they are cast. */
function check(id: string, run: Check['run'] = async () => undefined, extra: Omit<Partial<Check>, 'rules'> & { rules?: string[] } = {}): Check {
  return { id, title: id, area: id.split('.')[0], section: '7', safe: true, run, ...extra, rules: (extra.rules ?? []) as RuleId[] };
}

function recorder(): Reporter & { events: RunEvent[]; closed: boolean } {
  const r = {
    events: [] as RunEvent[],
    closed: false,
    onEvent(e: RunEvent) {
      r.events.push(e);
    },
    async close() {
      r.closed = true;
    },
  };
  return r;
}

describe('selection', () => {
  const checks = Array.from({ length: 60 }, (_, i) => check(`area${i % 5}.check-${i}`));
  it('splits into disjoint, complete, deterministic shards', () => {
    const shards = [1, 2, 3].map((index) => selectChecks(checks, { shard: { index, total: 3 } }).map((c) => c.id));
    expect(shards.flat().sort()).toEqual(checks.map((c) => c.id).sort());
    expect(new Set(shards.flat()).size).toBe(checks.length);
    expect(shards.every((s) => s.length > 0)).toBe(true);
    expect(selectChecks(checks, { shard: { index: 2, total: 3 } }).map((c) => c.id)).toEqual(shards[1]);
  });
  it('matches exact ids, prefixes and globs; parses shards', () => {
    expect(matchesPattern('errors.token.client-id-missing', 'errors.token.client-id-missing')).toBe(true);
    expect(matchesPattern('errors.token.client-id-missing', 'errors.token.*')).toBe(true);
    expect(matchesPattern('errors.token.client-id-missing', 'errors.')).toBe(true);
    expect(matchesPattern('errors.token.client-id-missing', '*.client-id-*')).toBe(true);
    expect(matchesPattern('errors.token.client-id-missing', 'errors.tok')).toBe(false);
    expect(parseShard('2/4')).toEqual({ index: 2, total: 4 });
    expect(() => parseShard('0/4')).toThrow(ConfigError);
    expect(() => parseShard('5/4')).toThrow(/--shard must look like i\/n/);
  });
});

describe('runChecks', () => {
  it('skips checks whose needs are unmet, naming the profile field', async () => {
    const url = await target();
    const checks = [
      check('a.control', async () => undefined, { needs: ['control'] }),
      check('a.pci', async () => undefined, { needs: ['pci'] }),
      check('a.two', async () => undefined, { needs: ['two_clients'] }),
      check('a.op', async () => undefined, { needs: ['operation:blockCard'] }),
      check('a.idp', async () => undefined, { needs: ['idp'] }),
      check('a.webhooks', async () => undefined, { needs: ['webhooks'] }),
      check('a.secret', async () => undefined, { needs: ['s2s_signing_secret'] }),
      check('a.ctx-skip', async (ctx) => ctx.skip('target has no cards')),
    ];
    const out = await runChecks({ profile: profile(url), model: model(), seed: 1 }, checks, []);
    const reasons = Object.fromEntries(out.results.map((r) => [r.checkId, r.reason]));
    expect(reasons).toEqual({
      'a.control': NO_CONTROL,
      'a.pci': 'needs the card-tokenization environment: profile.pci_url is not set',
      'a.two': 'needs two clients of different companies: profile.clients has 1',
      'a.op': 'profile.operations.blockCard not given: the spec does not show its path',
      'a.idp': 'needs the identity-provider exchange: profile.idp.enabled is not true',
      'a.webhooks': `the webhook receiver is not available: ${NO_WEBHOOK_ROUTE}`,
      'a.secret': 'needs to forge S2S tokens: profile.s2s_signing_secret is not set',
      'a.ctx-skip': 'target has no cards',
    });
    expect(out.results.every((r) => r.verdict === 'skip')).toBe(true);
    // Every check skipped: the run judged nothing, which is inconclusive (exit 4), never a pass.
    expect(out.exitCode).toBe(4);
    expect(out.verdict).toBe('inconclusive');
    expect(out.exitReasons).toEqual([expect.stringMatching(/^INCONCLUSIVE: the run judged nothing because all 8 selected checks skipped \(/)]);
  });

  it('replays identical fast-check inputs from the same seed, whatever else runs', async () => {
    const url = await target();
    const inputs: Record<string, number[][]> = {};
    const prop = (key: string) =>
      check(`props.${key}`, async (ctx) => {
        const seen: number[] = [];
        (inputs[key] ??= []).push(seen);
        await checkProperty(ctx, fc.property(fc.integer(), (x) => void seen.push(x)), { numRuns: 25 });
      });
    const checks = [prop('one'), prop('two'), check('other.a'), check('other.b')];
    const p = profile(url);
    await runChecks({ profile: p, model: model(), seed: 4242, concurrency: 4 }, checks, []);
    const replay = await runChecks({ profile: p, model: model(), seed: 4242, checkIds: ['props.one'], concurrency: 1 }, checks, []);
    expect(replay.results.map((r) => r.checkId)).toEqual(['props.one']);
    expect(replay.results[0].seed).toBe(deriveSeed(4242, 'props.one'));
    expect(inputs.one[0]).toHaveLength(25);
    expect(inputs.one[1]).toEqual(inputs.one[0]);
    expect(inputs.two[0]).not.toEqual(inputs.one[0]);
    await runChecks({ profile: p, model: model(), seed: 4243, checkIds: ['props.one'] }, checks, []);
    expect(inputs.one[2]).not.toEqual(inputs.one[0]);
  });

  it('starts the costliest checks first, keeps the selection order in the results, and runs exclusive ones after', async () => {
    const url = await target();
    const started: string[] = [];
    const mk = (id: string, extra: Omit<Partial<Check>, 'rules'> = {}) => check(id, async () => void started.push(id), extra);
    const checks = [mk('a.short', { cost: 2 }), mk('b.unknown'), mk('c.long', { cost: 40 }), mk('d.alone', { cost: 99, exclusive: true }), mk('e.mid', { cost: 9 }), mk('f.short', { cost: 2 })];
    const outcome = await runChecks({ profile: profile(url), model: model(), concurrency: 1, preflight: false }, checks, []);
    expect(started).toEqual(['c.long', 'e.mid', 'a.short', 'f.short', 'b.unknown', 'd.alone']);
    expect(outcome.results.map((r) => r.checkId)).toEqual(checks.map((c) => c.id));
    expect(byCost(checks.filter((c) => !c.exclusive)).map((c) => c.id)).toEqual(['c.long', 'e.mid', 'a.short', 'f.short', 'b.unknown']);
  });

  it('reports counterexamples, transport causes and time limits as failures', async () => {
    const url = await target((_q, res) => {
      res.writeHead(500);
      res.end('boom');
    });
    const checks = [
      check('f.prop', async (ctx) => checkProperty(ctx, fc.property(fc.integer({ min: 0, max: 1000 }), (x) => x < 50))),
      check('f.assert', async (ctx) => fc.assert(fc.property(fc.nat(), (x) => x < 10), { seed: ctx.seed })),
      check('f.status', async (ctx) => expectStatus(await ctx.http.send({ path: '/x' }), 200, ['R1', 'NOT-MINE'] as unknown as RuleId[]), { rules: ['R1', 'R2'] }),
      check('f.reset', async (ctx) => void (await ctx.http.send({ path: 'http://127.0.0.1:1/never' }))),
      check('f.hang', () => new Promise(() => undefined)),
      check('f.bug', async () => {
        throw new TypeError('x is undefined');
      }),
    ];
    const out = await runChecks({ profile: profile(url), model: model(), seed: 9, checkTimeoutMs: 300 }, checks, []);
    const by = Object.fromEntries(out.results.map((r) => [r.checkId, r]));
    expect(out.results.every((r) => r.verdict === 'fail')).toBe(true);
    expect(by['f.prop'].failure?.counterexample).toMatch(/Counterexample: \[50\]/);
    expect(by['f.assert'].failure?.counterexample).toMatch(/Counterexample: \[10\]/);
    expect(by['f.status'].failure?.message).toContain('expected HTTP 200, got 500');
    expect(by['f.status'].failure?.rules).toEqual(['R1']);
    expect(by['f.status'].failure?.exchange?.response?.status).toBe(500);
    expect(by['f.reset'].failure?.cause).toBe('CONNECTION_REFUSED');
    expect(by['f.hang'].failure?.cause).toBe('CHECK_TIMEOUT');
    expect(by['f.bug'].failure?.message).toBe('check error: TypeError: x is undefined');
    expect(out.exitCode).toBe(1);
  });

  it('emits events in order and computes rule coverage', async () => {
    const url = await target();
    const rules = [rule('R-PASS'), rule('R-FAIL'), rule('R-SKIP'), rule('R-NONE'), rule('R-UNTESTABLE', { testable: false, untestable_reason: 'internal' }), rule('R-OTHER-SHARD')];
    const checks = [
      check('c.pass', async (ctx) => void (await ctx.http.send({ path: '/ok' })), { rules: ['R-PASS'] }),
      check('c.fail', async (ctx) => expectStatus(await ctx.http.send({ path: '/ok' }), 201), { rules: ['R-FAIL', 'R-PASS'] }),
      check('c.skip', async () => undefined, { rules: ['R-SKIP'], needs: ['pci'] }),
      check('c.unsafe', async () => undefined, { rules: ['R-OTHER-SHARD'], safe: false }),
    ];
    const rec = recorder();
    const out = await runChecks({ profile: profile(url), model: model(rules), seed: 5, safe: true }, checks, [rec]);
    const verdicts = Object.fromEntries(out.rules.map((r) => [r.id, r.verdict]));
    expect(verdicts).toEqual({ 'R-PASS': 'fail', 'R-FAIL': 'fail', 'R-SKIP': 'skip', 'R-NONE': 'uncovered', 'R-UNTESTABLE': 'untestable', 'R-OTHER-SHARD': 'skip' });
    expect(out.rules.find((r) => r.id === 'R-OTHER-SHARD')?.reason).toContain('--safe');
    expect(out.summary).toMatchObject({ passed: 1, failed: 1, skipped: 1, total: 3, requests: 2 });
    expect(out.summary.rules).toEqual({ total: 6, passed: 0, failed: 2, blocked: 0, skipped: 2, uncovered: 1, untestable: 1 });
    expect(rec.closed).toBe(true);
    const types = rec.events.map((e) => e.type);
    expect(types[0]).toBe('run-started');
    expect(types.at(-1)).toBe('run-finished');
    for (const id of ['c.pass', 'c.fail']) {
      const mine = rec.events.filter((e) => ('checkId' in e ? e.checkId : e.type === 'exchange' ? e.exchange.checkId : e.type === 'check-finished' ? e.result.checkId : '') === id);
      expect(mine.map((e) => e.type)).toEqual(['check-started', 'exchange', 'check-finished']);
    }
    expect(JSON.stringify(rec.events)).not.toContain('secret-one');
  });

  it('runs exclusive checks alone, after the others', async () => {
    const url = await target();
    let running = 0;
    const log: string[] = [];
    const body = (id: string) => async () => {
      running++;
      log.push(`${id}:${running}`);
      await new Promise((r) => setTimeout(r, 30));
      running--;
    };
    const checks = [check('x.excl', body('excl'), { exclusive: true }), ...['a', 'b', 'c', 'd'].map((k) => check(`x.${k}`, body(k)))];
    await runChecks({ profile: profile(url), model: model(), concurrency: 4, preflight: false }, checks, []);
    expect(log.at(-1)).toBe('excl:1');
    expect(Math.max(...log.slice(0, 4).map((l) => Number(l.split(':')[1])))).toBe(4);
  });

  it('listens once on the run signal however many checks are in flight, and a cancel still reaches every one', async () => {
    const url = await target();
    const run = new AbortController();
    let started = 0;
    let listeners = -1;
    let release!: () => void;
    const allStarted = new Promise<void>((r) => (release = r));
    const body = async (ctx: Parameters<Check['run']>[0]) => {
      if (++started === 16) release();
      // Held until the run is cancelled (the race in run-check.ts ends a check that ignores it; bounded by the test's own timeout).
      await new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
    };
    const checks = Array.from({ length: 16 }, (_, i) => check(`x.held-${i}`, body));
    const done = runChecks({ profile: profile(url), model: model(), concurrency: 16, preflight: false, signal: run.signal }, checks, []);
    await allStarted;
    listeners = getEventListeners(run.signal, 'abort').length;
    run.abort(new Error('cancelled by the test'));
    const out = await done;
    expect(listeners).toBe(1);
    expect(out.results.map((r) => r.reason)).toEqual(checks.map(() => 'not completed: the run was cancelled'));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('fails fast on unreachable targets and rejected credentials', async () => {
    const closed = await target();
    const s = servers.pop()!;
    await new Promise((r) => s.close(r));
    await expect(runChecks({ profile: profile(closed), model: model() }, [check('a.b')], [])).rejects.toThrow(TargetUnreachableError);
    await expect(runChecks({ profile: profile(closed), model: model() }, [check('a.b')], [])).rejects.toThrow(/connection refused.*profile.base_url/);
    const denying = await target(undefined, 401);
    const err = await runChecks({ profile: profile(denying), model: model() }, [check('a.b')], []).catch((e) => e);
    expect(err).toBeInstanceOf(CredentialsError);
    expect(err.message).toBe(
      'the target rejected profile.clients[0]: check client_id/client_secret (or BAAS_CLIENT_ID/BAAS_CLIENT_SECRET)',
    );
    expect(err.exitCode).toBe(2);
  });

  it('registers services through the control API; a declared service the control API refuses stops the run', async () => {
    const registered: Record<string, any> = {};
    const status: Record<string, number> = { webhooks: 204, idp: 204 };
    const url = await target((req, res, body) => {
      if (req.method === 'PUT' && req.url?.startsWith('/__control/')) {
        const what = req.url.slice('/__control/'.length);
        registered[what] = JSON.parse(body);
        res.writeHead(status[what] ?? 204, { 'content-type': 'application/json' });
        res.end(status[what] !== 204 ? '{"error_reason":"ErrorInvalidField"}' : undefined);
        return;
      }
      res.end('{}');
    });
    const p = profile(url, { control_url: `${url}/__control`, idp: { enabled: true } });
    const checks = [
      check('s.webhooks', async (ctx) => {
        const rx = ctx.services.webhooks!;
        await fetch(`${rx.baseUrl}/v2/webhooks/user`, { method: 'POST', body: '{"user_id":"u9"}' });
        if (!(await rx.waitFor('/v2/webhooks/user', (b) => field(b, 'user_id') === 'u9', 1000))) throw new Error('no webhook');
      }, { needs: ['webhooks'] }),
      check('s.idp', async (ctx) => {
        if (!(await ctx.services.idp!.accessToken())) throw new Error('no token');
      }, { needs: ['idp'] }),
    ];
    const out = await runChecks({ profile: p, model: model(), seed: 3 }, checks, []);
    expect(out.results.map((r) => r.verdict)).toEqual(['pass', 'pass']);
    expect(registered.webhooks.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(registered.idp).toMatchObject({ client_id: 'c1', app_id: expect.stringMatching(/^app-/), jwks_url: expect.stringMatching(/jwks\.json$/) });

    // Issue 13: a refused registration of a service the profile declares is a run error, not 21 skips.
    status.idp = 400;
    const idpErr = await runChecks({ profile: p, model: model(), seed: 3 }, checks, []).catch((e) => e);
    expect(idpErr).toBeInstanceOf(ServiceRegistrationError);
    expect(idpErr.code).toBe('BAAS_SERVICE_REGISTRATION_REFUSED');
    expect(idpErr.exitCode).toBe(2);
    expect(idpErr.message).toMatch(/^registering the test identity provider failed: control setIdpConfig through the profile.control_url answered 400: .*the profile declares idp.enabled/);

    status.idp = 204;
    status.webhooks = 403;
    const whErr = await runChecks({ profile: p, model: model(), seed: 3 }, checks, []).catch((e) => e);
    expect(whErr).toBeInstanceOf(ServiceRegistrationError);
    expect(whErr.message).toMatch(/^registering the webhook receiver failed: control setWebhookBaseUrl through the profile.control_url answered 403: .*the profile declares control_url/);
    // The receiver it started for the refused registration is closed again.
    const refusedBase = registered.webhooks.base_url as string;
    await expect(fetch(`${refusedBase}/v2/webhooks/user`, { method: 'POST', body: '{}' })).rejects.toThrow();

    // Without control_url and idp.enabled nothing is declared: the checks skip, naming what is missing.
    const bare = await runChecks({ profile: profile(url), model: model(), seed: 3 }, checks, []);
    expect(bare.results.map((r) => r.verdict)).toEqual(['skip', 'skip']);
    expect(bare.results[0].reason).toContain(NO_WEBHOOK_ROUTE);
    expect(bare.results[1].reason).toMatch(/idp/);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { HttpSession } from '../client/http.ts';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import { ControlAdapterError, type ControlInput, type ControlModuleOperation, controlOperations, fileAdapter, httpControlAdapter, loadAdapterModule, parseAdapter } from './index.ts';
import type { ModuleOperation } from './module-adapter.ts';
import { readPointer, render } from './template.ts';

let model: Model;
beforeAll(async () => {
  model = await loadModel();
});

function problem(text: string): { pointer: string; problem: string; message: string } {
  try {
    parseAdapter('a.yaml', text, model);
  } catch (err) {
    expect(err).toBeInstanceOf(ControlAdapterError);
    const e = err as ControlAdapterError;
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain('a.yaml');
    return { pointer: e.pointer, problem: e.problem, message: e.message };
  }
  throw new Error('expected a ControlAdapterError');
}

describe('control operations', () => {
  it('come from spec/control.yaml with their inputs and result fields', () => {
    const ops = controlOperations(model);
    expect(ops.get('create3dsChallenge')).toMatchObject({ method: 'POST', pathParams: ['user_id'], bodyFields: ['amount', 'currency'], resultFields: ['transaction_id', 'expires_at'] });
    expect(ops.get('advanceClock')?.bodyFields).toEqual(['seconds']);
    expect(ops.size).toBe(Object.values<any>(model.control.paths ?? {}).flatMap((p) => Object.values<any>(p)).filter((o) => o?.operationId).length);
  });
});

describe('adapter file validation', () => {
  const ok = 'version: 1\nbase_url: http://sim\noperations:\n  advanceClock: { method: POST, path: /t, body: { s: "{{seconds}}" } }\n';
  it('accepts a well-formed file', () => {
    expect(Object.keys(parseAdapter('a.yaml', ok, model).operations)).toEqual(['advanceClock']);
  });
  it('names the file, the JSON pointer and the problem', () => {
    expect(problem('version: 1\noperations:\n  advanceClock: { method: POST, path: /t }\n')).toMatchObject({ pointer: '/operations/advanceClock/path', problem: expect.stringMatching(/needs base_url/) });
    expect(problem(ok.replace('advanceClock', 'advanceClok'))).toMatchObject({ pointer: '/operations/advanceClok', problem: expect.stringMatching(/unknown control operation advanceClok; spec\/control.yaml has .*advanceClock/) });
    expect(problem(ok.replace('{{seconds}}', '{{secs}}'))).toMatchObject({ pointer: '/operations/advanceClock/body/s', problem: expect.stringMatching(/unknown placeholder \{\{secs\}\}; known: seconds/) });
    expect(problem(ok.replace('method: POST', 'method: FETCH'))).toMatchObject({ pointer: '/operations/advanceClock/method' });
    expect(problem(ok.replace('path: /t', 'path: /t, retries: 3'))).toEqual(expect.objectContaining({ pointer: '/operations/advanceClock/retries', problem: 'unknown field' }));
    expect(problem(ok.replace('version: 1', 'version: 2'))).toMatchObject({ pointer: '/version', problem: 'must be 1' });
    expect(problem('version: 1\nbase_url: x\n')).toMatchObject({ pointer: '', problem: 'operations is required' });
    expect(problem('version: 1\noperations: [\n')).toMatchObject({ pointer: '', problem: expect.stringMatching(/^not valid YAML \(line \d+/) });
    expect(problem(ok.replace('body:', 'result: { now: /x, later: /y }, body:'))).toMatchObject({ pointer: '/operations/advanceClock/result/later', problem: expect.stringMatching(/no result field later/) });
  });
  it('steps: a saved name is known to later steps and the call, not before it is saved; it may not hide an input', () => {
    const steps = (list: string) => ok.replace('path: /t,', `steps: [${list}], path: "/t/{{tick}}",`);
    expect(parseAdapter('a.yaml', steps('{ method: GET, path: /a, save: { now: /x } }, { method: GET, path: "/b/{{now}}", save: { tick: /y } }'), model).operations.advanceClock.steps).toHaveLength(2);
    expect(problem(steps('{ method: GET, path: "/b/{{now}}", save: { tick: /y } }, { method: GET, path: /a, save: { now: /x } }'))).toMatchObject({ pointer: '/operations/advanceClock/steps/0/path', problem: expect.stringMatching(/unknown placeholder \{\{now\}\}/) });
    expect(problem(steps('{ method: GET, path: /a, save: { seconds: /x, tick: /y } }'))).toMatchObject({ pointer: '/operations/advanceClock/steps/0/save/seconds', problem: expect.stringMatching(/already a placeholder/) });
    expect(problem(steps('{ method: GET, path: /a, save: { tick: /y }, retries: 2 }'))).toMatchObject({ pointer: '/operations/advanceClock/steps/0/retries', problem: 'unknown field' });
    expect(problem('version: 1\noperations:\n  advanceClock: { steps: [{ method: GET, path: /a }], method: POST, path: http://x/t }\n')).toMatchObject({ pointer: '/operations/advanceClock/steps/0/path', problem: expect.stringMatching(/needs base_url/) });
  });
  it('a bad adapter file makes `run` exit 2 with the file, pointer and problem on stderr', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bc-adapter-'));
    await writeFile(join(dir, 'bad.yaml'), ok.replace('{{seconds}}', '{{secs}}'));
    const c = captureIo({ env: { BAAS_CLIENT_ID: 'x', BAAS_CLIENT_SECRET: 'y' }, cwd: dir });
    // The adapter is read before any check runs, so an unreachable target is never contacted first.
    const srv = createServer((_q, r) => r.end(JSON.stringify({ access_token: 'tok-123456789', expires_at: 9e9 })));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const code = await main(['run', '--target', `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, '--control-adapter', 'bad.yaml', '--report-dir', 'out'], c.io);
      expect(code).toBe(2);
      expect(c.err()).toMatch(new RegExp(`control adapter ${join(dir, 'bad.yaml').replace(/[/.]/g, '\\$&')}:4 at /operations/advanceClock/body/s: unknown placeholder`));
    } finally {
      await new Promise((r) => srv.close(r));
    }
  });
});

describe('templates', () => {
  it('keep the type of a whole placeholder, interpolate parts, drop absent values', () => {
    expect(render({ a: '{{n}}', b: 'x-{{n}}', c: '{{missing}}', d: ['{{missing}}', '{{s}}'], e: { '{{s}}': 1 } }, { n: 5, s: 'k' })).toEqual({ a: 5, b: 'x-5', d: ['k'], e: { k: 1 } });
  });
  it('leave out an object whose every field was an absent input; a literal {} stays', () => {
    expect(render({ amount: { value: '{{amount}}' }, keep: {}, part: { v: '{{amount}}', ccy: '{{currency}}' } }, { currency: 'EUR' })).toEqual({ keep: {}, part: { ccy: 'EUR' } });
    expect(render({ amount: { value: '{{amount}}' } }, {})).toBeUndefined();
  });
  it('read JSON pointers with escapes', () => {
    expect(readPointer({ 'a/b': { '~c': [1, 2] } }, '/a~1b/~0c/1')).toBe(2);
    expect(readPointer({ a: 1 }, '/b/c')).toBeUndefined();
    expect(readPointer({ a: 1 }, '')).toEqual({ a: 1 });
  });
});

describe('adapters against a loopback vendor', () => {
  let server: Server;
  let base: string;
  const seen: { method?: string; url?: string; headers: Record<string, unknown>; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.writeHead(req.url?.includes('/fail') ? 409 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ deep: { ref: 'tx-9', exp: 123 } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const session = () => new HttpSession({ profile: resolveProfile({ base_url: base, clients: [{ client_id: 'c', client_secret: 's-secret' }], control_url: `${base}/ctl` }, { env: {} }), model });

  it('the file adapter sends the templated call and reads the result; the env key is masked', async () => {
    const doc = parseAdapter('v.yaml', [
      'version: 1',
      'base_url: "{{profile.base_url}}/sim"',
      'headers: { x-key: "{{env.SIM_KEY}}" }',
      'operations:',
      '  create3dsChallenge:',
      '    method: POST',
      '    path: /holders/{{user_id}}/ch',
      '    query: { c: "{{currency}}" }',
      '    body: { amt: "{{amount}}", who: { id: "{{user_id}}" } }',
      '    values: { currency: { EUR: "978" } }',
      '    result: { transaction_id: /deep/ref, expires_at: /deep/exp }',
      '  advanceClock: { method: POST, path: /fail, expect_status: [200] }',
    ].join('\n'), model);
    const s = session();
    const adapter = fileAdapter('v.yaml', doc, { profile: s.profile, env: { SIM_KEY: 'very-secret-sim-key' }, onSecret: (v) => s.learnedSecrets.add(v) });
    const http = s.client('t');
    const res = await adapter.call(http, 'create3dsChallenge', { params: { user_id: 'u/1' }, body: { amount: 12.5, currency: 'EUR' } });
    expect(res).toMatchObject({ ok: true, json: { transaction_id: 'tx-9', expires_at: 123 } });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ method: 'POST', url: '/sim/holders/u/1/ch?c=978' });
    expect(JSON.parse(last.body)).toEqual({ amt: 12.5, who: { id: 'u/1' } });
    expect(last.headers['x-key']).toBe('very-secret-sim-key');
    expect(http.lastExchange?.curl).not.toContain('very-secret-sim-key');
    expect((await adapter.call(http, 'advanceClock', { body: { seconds: 1 } })).ok).toBe(false);
    expect(adapter.supports('signChallenge')).toBe(false);
    await s.close();
  });

  it('the file adapter runs steps in order, their saved answers feeding later templates; a failing step stops the operation', async () => {
    const doc = parseAdapter('v.yaml', [
      'version: 1',
      `base_url: "${base}"`,
      'operations:',
      '  create3dsChallenge:',
      '    steps:',
      '      - { method: POST, path: "/cards/{{user_id}}", body: { kind: test }, save: { card: /deep/ref } }',
      '      - { method: GET, path: "/cards/{{card}}", save: { exp: /deep/exp } }',
      '    method: POST',
      '    path: /cards/{{card}}/challenges',
      '    body: { amount: { value: "{{amount}}", ccy: "{{currency}}" }, until: "{{exp}}" }',
      '    result: { transaction_id: /deep/ref }',
      '  completeSepaActivation:',
      '    steps: [{ method: GET, path: "/fail/{{user_id}}", save: { account: /deep/ref } }]',
      '    method: POST',
      '    path: /accounts/{{account}}/open',
      '  signChallenge:',
      '    steps: [{ method: GET, path: "/wallets/{{user_id}}", save: { wallet: /deep/nothing } }]',
      '    method: POST',
      '    path: /wallets/{{wallet}}/sign',
    ].join('\n'), model);
    const s = session();
    const adapter = fileAdapter('v.yaml', doc, { profile: s.profile, env: {}, onSecret: () => undefined });
    const http = s.client('t');
    const from = seen.length;
    const res = await adapter.call(http, 'create3dsChallenge', { params: { user_id: 'u1' }, body: {} });
    expect(res).toMatchObject({ ok: true, json: { transaction_id: 'tx-9' } });
    expect(seen.slice(from).map((x) => `${x.method} ${x.url} ${x.body}`)).toEqual(['POST /cards/u1 {"kind":"test"}', 'GET /cards/tx-9 ', 'POST /cards/tx-9/challenges {"until":123}']);
    const refused = await adapter.call(http, 'completeSepaActivation', { params: { user_id: 'u2' }, body: {} });
    expect(refused).toMatchObject({ ok: false, status: 409, text: expect.stringMatching(/^step 1 of 1 \(GET http:\/\/127\.0\.0\.1:\d+\/fail\/u2\) answered HTTP 409/) });
    expect(seen.at(-1)?.url).toBe('/fail/u2');
    const nothing = await adapter.call(http, 'signChallenge', { params: { user_id: 'u3' }, body: { challenge: 'c' } });
    expect(nothing).toMatchObject({ ok: false, status: 200, text: expect.stringMatching(/answered nothing at \/deep\/nothing to save as wallet/) });
    expect(seen.at(-1)?.url).toBe('/wallets/u3');
    await s.close();
  });
  it('the HTTP adapter calls our control API at the model path', async () => {
    const s = session();
    const res = await httpControlAdapter(model).call(s.client('t'), 'setSepaCapabilityStatus', { params: { user_id: 'u1' }, body: { status: 'Active' } });
    expect(res.ok).toBe(true);
    expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/ctl/users/u1/capabilities/SepaAccount', body: '{"status":"Active"}' });
    await s.close();
  });

  it('the public module contract (ControlModuleOperation, exported by the package) is what the loader calls', () => {
    // Checked by tsc: a function written against the public types is accepted by the loader's table.
    expectTypeOf<ControlModuleOperation>().toExtend<ModuleOperation>();
    expectTypeOf<Parameters<ControlModuleOperation>[0]>().toEqualTypeOf<ControlInput>();
  });
  it('a JS module adapter performs its operations through the check client; a bad module names the operation', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bc-module-'));
    const good = join(dir, 'adapter.mjs');
    await writeFile(good, `export const operations = {
      async create3dsChallenge(input, { http }) {
        const res = await http.send({ method: 'POST', path: '${base}/mod/' + input.params.user_id, body: { a: input.body.amount } });
        return { transaction_id: res.json.deep.ref };
      },
    };`);
    const s = session();
    const adapter = await loadAdapterModule(good, model, s.profile);
    expect(adapter.operations()).toEqual(['create3dsChallenge']);
    expect(await adapter.call(s.client('t'), 'create3dsChallenge', { params: { user_id: 'u7' }, body: { amount: 3 } })).toMatchObject({ ok: true, json: { transaction_id: 'tx-9' } });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/mod/u7', body: '{"a":3}' });
    const bad = join(dir, 'bad.mjs');
    await writeFile(bad, 'export const operations = { advanceClok: async () => ({}) };');
    await expect(loadAdapterModule(bad, model, s.profile)).rejects.toMatchObject({ pointer: '/operations/advanceClok', exitCode: 2 });
    await s.close();
  });
});

// Nightly CI end to end through the CLI, on a real loopback target whose config read can be broken:
// run --expected-failures (waive, now-passes, expired, unknown), run --baseline, diff; the results
// files written are validated against spec/schemas/results.schema.json.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_FILES, validatorFor } from '../../baseline/index.ts';
import { captureIo } from '../capture.ts';
import { main } from '../index.ts';

let server: Server;
let url = '';
let configBroken = true;
let dir = '';
const ENV = { BAAS_CLIENT_ID: 'ci-client', BAAS_CLIENT_SECRET: 'ci-secret-value' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bc-ci-'));
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/token') return res.end(JSON.stringify({ access_token: 'tok-abcdef', token_type: 'Bearer', expires_at: Math.floor(Date.now() / 1000) + 3600 }));
      if (req.url === '/api/v1/config' && configBroken) {
        res.statusCode = 500;
        return res.end('{"error_reason":"ErrorInternal"}');
      }
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function cli(argv: string[]) {
  const c = captureIo({ env: ENV, cwd: dir });
  const code = await main(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

const run = (name: string, ...extra: string[]) =>
  cli(['run', '--target', url, '--check', 'schema.get-config', '--seed', '11', '--report-dir', join(dir, name), ...extra]);

async function results(name: string) {
  const doc = JSON.parse(await readFile(join(dir, name, 'results.json'), 'utf8'));
  const validate = validatorFor(SCHEMA_FILES.results);
  expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
  return doc;
}

async function list(name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, body);
  return path;
}

describe('nightly CI flags', () => {
  it('a listed failure is reported but does not fail the run; a rotten list does', async () => {
    configBroken = true;
    const plain = await run('broken');
    expect(plain.code).toBe(1);
    expect((await results('broken')).checks[0].verdict).toBe('fail');

    const waived = await run('waived', '--expected-failures', await list('ok.yaml', '- check: schema.get-config\n  reason: config read is down, ticket 7\n  expires: 2999-12-31\n'));
    expect(waived.code).toBe(0);
    expect(waived.out).toContain('waived schema.get-config (fail, known): config read is down, ticket 7');
    const doc = await results('waived');
    expect(doc.expected.waived).toEqual([{ check: 'schema.get-config', reason: 'config read is down, ticket 7', verdict: 'fail', kind: 'known' }]);
    expect(doc.exit).toEqual({ code: 0, verdict: 'pass', reasons: [] });

    const expired = await run('expired', '--expected-failures', await list('expired.yaml', '- check: schema.get-config\n  reason: was temporary\n  expires: 2000-01-01\n'));
    expect(expired.code).toBe(1);
    expect(expired.out).toContain('the known entry for schema.get-config (no link) expired on 2000-01-01');

    const unknown = await run('unknown', '--expected-failures', await list('unknown.json', JSON.stringify([{ check: 'schema.get-config', reason: 'r' }, { check: 'schema.no-such-check', reason: 'typo' }])));
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('schema.no-such-check is not a check of this tool');

    configBroken = false;
    const fixed = await run('fixed', '--expected-failures', join(dir, 'ok.yaml'), '--baseline', join(dir, 'broken', 'results.json'));
    expect(fixed.code).toBe(1);
    expect(fixed.out).toContain('now-passes schema.get-config: schema.get-config now passes: delete its entry');
    // --baseline prints per rule and per check what was fixed.
    expect(fixed.out).toMatch(/Fixed: \d+ rules?, 1 check/);
    expect(fixed.out).toContain('check schema.get-config: fail -> pass');
    expect(fixed.out).toContain('rule  ENDPOINT-RESPONSE-SCHEMA: fail -> pass');
    expect((await results('fixed')).diff.checks.fixed).toEqual([{ id: 'schema.get-config', from: 'fail', to: 'pass' }]);
  });

  it('typed waivers: kind, owner and link are recorded; an expired entry fails the run naming its link', async () => {
    configBroken = true;
    const muted = await run('muted', '--expected-failures', await list('muted.yaml', '- check: schema.get-config\n  reason: flaps on the sandbox\n  kind: muted\n  owner: team-payments\n  link: https://tracker.example/BAAS-42\n  expires: 2999-12-31\n'));
    expect(muted.code, muted.out + muted.err).toBe(0);
    expect(muted.out).toContain('waived schema.get-config (fail, muted, owner team-payments, https://tracker.example/BAAS-42): flaps on the sandbox');
    expect((await results('muted')).expected.waived).toEqual([{ check: 'schema.get-config', reason: 'flaps on the sandbox', verdict: 'fail', kind: 'muted', owner: 'team-payments', link: 'https://tracker.example/BAAS-42' }]);

    const expired = await run('expired-typed', '--expected-failures', await list('expired-typed.yaml', '- check: schema.get-config\n  reason: accepted until the v2 rollout\n  kind: accepted\n  owner: ops\n  link: https://tracker.example/BAAS-7\n  expires: 2000-01-01\n'));
    expect(expired.code).toBe(1);
    expect(expired.out).toContain('the accepted entry for schema.get-config (owner ops, link https://tracker.example/BAAS-7) expired on 2000-01-01');
    const doc = await results('expired-typed');
    expect(doc.expected.problems).toMatchObject([{ check: 'schema.get-config', problem: 'expired', message: expect.stringContaining('https://tracker.example/BAAS-7') }]);
    expect(doc.exit.code).toBe(1);

    const badKind = await run('x', '--expected-failures', await list('bad-kind.yaml', '- check: schema.get-config\n  reason: r\n  kind: ignored\n'));
    expect(badKind.code).toBe(2);
    expect(badKind.err).toContain('bad-kind.yaml: does not match spec/schemas/expected-failures.schema.json');
  });

  it('certify takes no expected-failures list: a muted waiver cannot reach a certificate', async () => {
    const path = await list('certify-muted.yaml', '- check: schema.get-config\n  reason: muted noise\n  kind: muted\n');
    const r = await cli(['certify', '--target', url, '--out', join(dir, 'cert'), '--expected-failures', path]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/expected-failures/);
  });

  it('diff OLD NEW prints what newly fails and exits 1 only then', async () => {
    const forward = await cli(['diff', join(dir, 'broken', 'results.json'), join(dir, 'fixed', 'results.json')]);
    expect(forward.code).toBe(0);
    expect(forward.out).toContain('check schema.get-config: fail -> pass');
    const back = await cli(['diff', join(dir, 'fixed', 'results.json'), join(dir, 'broken', 'results.json')]);
    expect(back.code).toBe(1);
    expect(back.out).toMatch(/Newly failing: \d+ rules?, 1 check/);
    expect(back.out).toContain('check schema.get-config: pass -> fail');
    const json = await cli(['diff', '--json', join(dir, 'fixed', 'results.json'), join(dir, 'broken', 'results.json')]);
    expect(JSON.parse(json.out).checks.newlyFailing[0]).toMatchObject({ id: 'schema.get-config', from: 'pass', to: 'fail' });
  });

  it('bad inputs exit 2 with a one-line typed message', async () => {
    await writeFile(join(dir, 'not-results.json'), '{"hello":1}');
    const r = await cli(['diff', join(dir, 'not-results.json'), join(dir, 'fixed', 'results.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not-results\.json: kind is undefined, expected "baas-conform\/results"/);
    const missing = await run('x', '--baseline', join(dir, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nope\.json: cannot read the file \(no such file\)/);
    const badList = await run('x', '--expected-failures', await list('bad.yaml', '- check: a\n'));
    expect(badList.code).toBe(2);
    expect(badList.err).toContain('bad.yaml: does not match spec/schemas/expected-failures.schema.json');
  });
});

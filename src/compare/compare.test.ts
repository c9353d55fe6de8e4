// compare on real loopback servers: the embedded reference as A; as B a second reference behind a
// loopback proxy that adds a field the spec does not list to the v2 user read and drops a field it
// lists (card_data, not required on the create-card answer, so no rule fails). Each must appear in
// exactly its group. The same proxy passing answers through unchanged must show no difference at
// all: ids, addresses, timestamps and generated names differ between the two references, so this
// holds only if normalisation does its job. A faulty mode (a v1 user read with the v2-only
// capabilities) shows the verdict group and exit 1.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { isObject } from '../mutants/json.ts';
import { startInterceptProxy, PROXY_CONTROL_PREFIX, type InterceptProxy } from '../mutants/proxy.ts';
import type { TargetProfile } from '../profile/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { compareTargets, type CompareResult } from './index.ts';
import { volatileMatcher } from './volatile.ts';
import { placeBody } from './classify.ts';
import { loadModel } from '../model/index.ts';

const CHECKS = ['cards.*', 'schema.*', 'versioning.*'];
const SEED = 11;
const EXTRA = 'vendor_tier';

let dir: string;
let refA: ReferenceServer;
let refB: ReferenceServer;
let proxy: InterceptProxy;
const mutate = { on: true, failing: false, reasons: false };
let profileB: TargetProfile;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baas-compare-'));
  [refA, refB] = await Promise.all([startReference(), startReference()]);
  proxy = await startInterceptProxy(refB.profile, {
    response(req, res) {
      // Another stack's reasons where section 7 names none: the token endpoint's 429 and the wrong SEPA
      // activation path ("returns HTTP 400"); and, where a row names one, another reason on that row.
      if (mutate.reasons && isObject(res.json) && typeof res.json.error_reason === 'string') {
        const bank = ['createBankAccount', 'initBankAccount', 'completeBankAccount'].includes(req.operationId ?? '');
        if (res.status === 429) res.json = { ...res.json, error_reason: 'ErrorRateLimitExceeded' };
        else if (res.status === 400 && bank) res.json = { ...res.json, error_reason: 'ErrorInvalidState' };
        else return;
        res.body = JSON.stringify(res.json);
        return;
      }
      if (!mutate.on || res.status >= 300 || !isObject(res.json)) return;
      // The faulty mode: the v1 user read carries the capabilities array only v2 returns (section 9.1).
      if (mutate.failing) {
        if (req.operationId !== 'getUserV1') return;
        res.json = { ...res.json, capabilities: [] };
      } else if (req.operationId === 'getUserV2') res.json = { ...res.json, [EXTRA]: 'gold' };
      else if (req.operationId === 'createVirtualCard') {
        const { card_data: _dropped, ...rest } = res.json;
        res.json = rest;
      } else return;
      res.body = JSON.stringify(res.json);
    },
  });
  profileB = { ...refB.profile, base_url: proxy.baseUrl, control_url: `${proxy.baseUrl}${PROXY_CONTROL_PREFIX}` };
  await writeFile(join(dir, 'a.json'), JSON.stringify(refA.profile));
  await writeFile(join(dir, 'b.json'), JSON.stringify(profileB));
});
afterAll(async () => {
  await proxy?.close();
  await Promise.all([refA?.close(), refB?.close()]);
  await rm(dir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const { io, out, err } = captureIo({ cwd: dir, env: {} });
  const code = await main(args, io);
  return { code, out: out(), err: err() };
}

/** The part of the page from one group's section to the next section. */
const section = (html: string, group: string) => html.slice(html.indexOf(`data-group="${group}"`)).split('</section>')[0];

describe('compare', () => {
  it('places a field the spec does not list under "spec is silent" and a dropped listed field under "specified", nothing else', async () => {
    mutate.on = true;
    const r: CompareResult = await compareTargets({ profiles: [refA.profile, profileB], seed: SEED, checks: CHECKS, env: {} });
    expect(r.seed).toBe(SEED);
    expect(r.verdicts).toEqual({ rules: [], checks: [] });
    expect(r.exitCode).toBe(0);
    expect(r.specified.map((d) => [d.operation, d.kind, d.field])).toEqual([['createVirtualCard', 'only-a', '$.card_data']]);
    expect(r.specified[0].why).toMatch(/listed by the model's response schema for createVirtualCard/);
    expect(r.silent.map((d) => [d.operation, d.kind, d.field])).toEqual([['getUserV2', 'only-b', `$.${EXTRA}`]]);
    expect(r.silent[0].why).toMatch(/does not list this field/);
    expect(r.silent[0].occurrences).toBeGreaterThan(1); // every v2 user read of the selection, aggregated
    expect(r.counts.pairedSteps).toBeGreaterThan(20);
  });

  it('reference against reference (through the same proxy, passing answers unchanged): no difference at all; the CLI writes JSON and the CSP-locked HTML', async () => {
    mutate.on = false;
    const r = await cli('compare', '--profile', 'a.json', '--profile', 'b.json', '--seed', String(SEED), ...CHECKS.flatMap((c) => ['--check', c]), '--report-dir', 'out');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Compared \d+ steps \(seed 11\): 0 rule verdicts differ, 0 checks; 0 differences where the spec specifies, 0 where it is silent/);
    const json = JSON.parse(await readFile(join(dir, 'out/compare.json'), 'utf8')) as CompareResult;
    expect(json.kind).toBe('baas-conform-compare');
    expect([json.verdicts.rules, json.verdicts.checks, json.specified, json.silent, json.unpaired]).toEqual([[], [], [], [], []]);
    expect(json.counts.notCompared).toBe(0);
    const html = await readFile(join(dir, 'out/compare.html'), 'utf8');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#x27;none&#x27;|<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`data-count="paired">${json.counts.pairedSteps}<`);
  });

  it('the HTML shows each difference in its group', async () => {
    mutate.on = true;
    const r = await cli('compare', '--profile', 'a.json', '--profile', 'b.json', '--seed', String(SEED), '--check', 'schema.get-user-v2', '--check', 'schema.create-virtual-card', '--json-out', 'm.json', '--html', 'm.html');
    expect(r.code).toBe(0);
    const html = await readFile(join(dir, 'm.html'), 'utf8');
    expect(section(html, 'silent')).toContain(`data-field="$.${EXTRA}"`);
    expect(section(html, 'silent')).not.toContain('data-field="$.card_data"');
    expect(section(html, 'specified')).toContain('data-field="$.card_data"');
    expect(section(html, 'specified')).not.toContain(`data-field="$.${EXTRA}"`);
    expect(r.out).toMatch(/Spec is silent here[^\n]*\n {2}getUserV2 \$\.vendor_tier: only in B/);
  });

  it('a rule that fails on B only: exit 1, the rule and its checks in the verdict group, with the answers that differ there alone', async () => {
    mutate.on = true;
    mutate.failing = true;
    try {
      const r = await cli('compare', '--profile', 'a.json', '--profile', 'b.json', '--seed', String(SEED), '--check', 'versioning.*', '--check', 'schema.get-user-v1', '--json-out', 'f.json', '--html', 'f.html');
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/Exit 1: a rule verdict differs/);
      const json = JSON.parse(await readFile(join(dir, 'f.json'), 'utf8')) as CompareResult;
      expect(json.exitCode).toBe(1);
      expect(json.verdicts.rules.length).toBeGreaterThan(0);
      // The rule the fault breaks fails on B; others the failing checks covered went untested there (skip).
      expect(json.verdicts.rules.filter((v) => v.b === 'fail').map((v) => v.id)).toContain('VERSION-V1-NO-CAPABILITIES');
      for (const v of json.verdicts.rules) expect(v.a).toBe('pass');
      for (const c of json.verdicts.rules.flatMap((v) => v.checks)) expect(c === 'schema.get-user-v1' || c.startsWith('versioning.')).toBe(true); // only checks that ran
      expect(json.verdicts.checks.map((c) => c.check)).toContain('versioning.v1.no-capabilities');
      const steps = json.verdicts.checks.flatMap((c) => c.steps.map((d) => [d.operation, d.kind, d.field]));
      expect(steps).toContainEqual(['getUserV1', 'only-b', '$.capabilities']);
      expect([...json.specified, ...json.silent].filter((d) => d.field === '$.capabilities')).toEqual([]);
      expect(section(await readFile(join(dir, 'f.html'), 'utf8'), 'verdicts')).toContain('data-field="$.capabilities"');
    } finally {
      mutate.failing = false;
    }
  });

  it('two runs that judged nothing agree on every rule, and that says nothing: exit 4, INCONCLUSIVE', async () => {
    // Neither profile names the test-control API: both sides skip every check that needs it.
    const bare = (p: TargetProfile): TargetProfile => {
      const { control_url: _c, ...rest } = p;
      return rest;
    };
    await writeFile(join(dir, 'bare-a.json'), JSON.stringify(bare(refA.profile)));
    await writeFile(join(dir, 'bare-b.json'), JSON.stringify(bare(refB.profile)));
    const r = await cli('compare', '--profile', 'bare-a.json', '--profile', 'bare-b.json', '--seed', '1', '--check', 'aliases.3ds.owner', '--json-out', 'n.json', '--html', 'n.html');
    expect(r.code).toBe(4);
    expect(r.out).toContain('Exit 4: INCONCLUSIVE: the comparison judged nothing because the run against A and B judged nothing');
    const json = JSON.parse(await readFile(join(dir, 'n.json'), 'utf8')) as CompareResult;
    expect(json.verdicts.rules).toEqual([]);
    expect([json.targets.a.exitCode, json.targets.b.exitCode]).toEqual([4, 4]);
    expect(await readFile(join(dir, 'n.html'), 'utf8')).toContain('data-value="inconclusive">INCONCLUSIVE: the comparison judged nothing');
  });

  it('lists other error reasons where section 7 names none (429, the wrong SEPA path) under "silent", never "specified"', async () => {
    mutate.on = false;
    mutate.reasons = true;
    try {
      const r = await compareTargets({ profiles: [refA.profile, profileB], seed: SEED, checks: ['limits.token.rate-limit', 'states.sepa.wrong-path'], env: {} });
      expect(r.verdicts).toEqual({ rules: [], checks: [] });
      expect(r.specified).toEqual([]);
      const reasons = r.silent.filter((d) => d.field === '$.error_reason').map((d) => [d.operation, d.a, d.b]);
      expect(reasons).toContainEqual(['createToken', '"ErrorRateLimited"', '"ErrorRateLimitExceeded"']);
      expect(reasons.some(([op, , b]) => ['createBankAccount', 'initBankAccount', 'completeBankAccount'].includes(op!) && b === '"ErrorInvalidState"')).toBe(true);
      for (const d of r.silent.filter((x) => x.field === '$.error_reason')) expect(d.why).toMatch(/section 7 row ERR-(RATE-LIMITED|SEPA-WRONG-PATH) shows no reason/);
    } finally {
      mutate.reasons = false;
    }
  });

  it('usage errors exit 2; an unreachable target exits 3', async () => {
    expect((await cli('compare', '--profile', 'a.json')).code).toBe(2);
    await writeFile(join(dir, 'down.json'), JSON.stringify({ base_url: 'http://127.0.0.1:1', clients: refA.profile.clients }));
    const down = await cli('compare', '--profile', 'down.json', '--profile', 'a.json', '--seed', '1');
    expect(down.code).toBe(3);
    expect(down.err).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1/);
  });

  it('a library caller meets the run bounds: every bad option named at once, before either side runs', async () => {
    const started: string[] = [];
    const run = compareTargets({ profiles: [refA.profile, refA.profile], timeoutBudgetMs: 50, checkTimeoutMs: 0, onRun: (side) => void started.push(side) });
    await expect(run).rejects.toThrow(/--timeout-budget must be an integer from 100 to 300000, got 50; --check-timeout must be a positive integer, got 0/);
    expect(started).toEqual([]);
  });
});

describe('volatile_fields', () => {
  it('a name matches at any depth, a path from the root, an operationId prefix narrows either', () => {
    const m = volatileMatcher(['challenge', '$.balances[].balance', 'getActivity:completed_at']);
    expect(m('initBankAccount', '$.challenge')).toBe(true);
    expect(m('anything', '$.data[].challenge.x')).toBe(true);
    expect(m('getWallet', '$.balances[].balance')).toBe(true);
    expect(m('getWallet', '$.balances[].token_symbol')).toBe(false);
    expect(m('getActivity', '$.completed_at')).toBe(true);
    expect(m('listActivity', '$.data[].completed_at')).toBe(false);
  });
});

describe('where an error body value is specified, read from the section 7 rows of the model', () => {
  it('a reason or message a row shows is specified; one no row shows (429, wrong SEPA path, no row at all) is silent; the category follows the category table', async () => {
    const model = await loadModel();
    const op = (id: string) => model.operations.get(id as never);
    const value = (path: string) => ({ kind: 'value', path, first: '"x"', second: '"y"' }) as never;
    const place = (id: string, status: number, path: string, rules?: string[]) => placeBody(model, op(id), status, 'value', value(path), rules);
    expect(place('createToken', 401, '$.error_reason', ['ERR-TOKEN-WRONG-SECRET'])).toMatchObject({ silent: false, code: true });
    expect(place('createToken', 401, '$.error_description', ['ERR-TOKEN-WRONG-SECRET']).silent).toBe(false);
    expect(place('createToken', 429, '$.error_reason', ['ERR-RATE-LIMITED', 'LIMIT-TOKEN-RATE-LIMIT'])).toMatchObject({ silent: true, code: true });
    expect(place('createToken', 429, '$.error_reason').why).toMatch(/ERR-RATE-LIMITED shows no reason/);
    expect(place('createBankAccount', 400, '$.error_reason', ['STATE-SEPA-WRONG-PATH', 'ERR-SEPA-WRONG-PATH']).silent).toBe(true);
    expect(place('getWallet', 404, '$.error_reason').why).toMatch(/no section 7 row answers HTTP 404/);
    expect(place('createToken', 400, '$.error_category.category').silent).toBe(false);
    expect(place('createToken', 422, '$.error_category.category').silent).toBe(true);
  });
});

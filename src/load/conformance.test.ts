// Every answer of a load run judged: a loopback target that answers 1 request in 100 with a 200 and
// an empty body (or a 500 / 429 without the section 7 body) fails the run on conformance_errors,
// naming the rule and the operation, with the exchange in load.html; thresholds per run, operation
// and rule; sampling; a conforming target stays clean.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { packagePath } from '../package/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { runLoad, type LoadResult } from './index.ts';
import { stallTarget, type Fault, type StallTarget } from './testing.ts';

const addFormats = (addFormatsModule as any).default ?? addFormatsModule;
const ENV = { BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a' };

async function cli(argv: string[], files: Record<string, string> = {}) {
  const cwd = await mkdtemp(join(tmpdir(), 'bc-conf-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(cwd, name), text);
  const c = captureIo({ env: ENV, cwd });
  const code = await main(argv, c.io);
  return { code, out: c.out(), err: c.err(), cwd };
}

async function validator() {
  const schema = JSON.parse(await readFile(packagePath('spec', 'schemas', 'load-result.schema.json'), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

// Load requests only (setup is the first few): 1 in 100 answered 200 with no body.
const emptyEvery100 = (n: number) => (n > 5 && n % 100 === 0 ? { status: 200, body: '' } : undefined);

// The tests side by side: each load run is seconds of arrivals at a fixed rate, mostly waiting. Every run
// gets a target of its own, so a fault counted on a target's requests (1 in 100) counts that run's alone.
const opened: StallTarget[] = [];
async function target(fault?: (n: number) => Fault | undefined): Promise<StallTarget> {
  const t = await stallTarget({ delayFor: () => 0, ...(fault ? { fault } : {}) });
  opened.push(t);
  return t;
}
const faultyTarget = () => target(emptyEvery100);

describe.concurrent('load: every answer judged', () => {
  afterAll(async () => {
    await Promise.all(opened.map((t) => t.close()));
  });

  it('1 answer in 100 a 200 with an empty body: fails on conformance_errors naming rule and operation, the exchange in load.html', async () => {
    const faulty = await faultyTarget();
    const r = await cli(['load', 'user-read', '--target', faulty.base_url, '--arrival-rate', '200', '--duration', '1.5', '--no-progress', '--report-dir', 'out']);
    expect(r.code).toBe(1);
    const json = JSON.parse(await readFile(join(r.cwd, 'out', 'load.json'), 'utf8')) as LoadResult;
    const validate = await validator();
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    const c = json.conformance!;
    expect(c.judged).toBe(c.answers);
    expect(c.findings).toBeGreaterThanOrEqual(2);
    expect(c.by_operation.getUserV1['ENDPOINT-RESPONSE-SCHEMA']).toBe(c.findings);
    expect(c.exchanges['ENDPOINT-RESPONSE-SCHEMA'].length).toBeLessThanOrEqual(3);
    expect(json.counts.errors).toBe(0); // a 200 is not an HTTP error: only the judge sees it
    const reason = json.verdict.reasons.find((x) => x.startsWith('conformance_errors'));
    expect(reason).toMatch(/ENDPOINT-RESPONSE-SCHEMA on getUserV1/);
    expect(r.out).toMatch(/conformance\s+\d+ of \d+ answers judged: \d+ finding\(s\): ENDPOINT-RESPONSE-SCHEMA on getUserV1/);
    const html = await readFile(join(r.cwd, 'out', 'load.html'), 'utf8');
    expect(html).toMatch(/Conformance under load/);
    expect(html).toMatch(/<code>ENDPOINT-RESPONSE-SCHEMA<\/code>: first offending exchanges/);
    expect(html).toMatch(/GET \/api\/v1\/user/);
    expect(html).toMatch(/\(empty body\)/);
    expect(html).toMatch(/has an empty body/);
  });

  it('a 500 without the section 7 body and a 429 with the wrong category: ERR-BODY-SHAPE and ERR-CATEGORY-STATUS', async () => {
    const wrong429 = JSON.stringify({ error_reason: 'ErrorRateLimited', error_description: 'slow down', error_category: { category: 'CategoryInternalFailure', http_status_code: 429 } });
    const t = await target((n) => (n > 5 && n % 50 === 0 ? { status: 500, body: 'upstream exploded', contentType: 'text/plain' } : n > 5 && n % 50 === 25 ? { status: 429, body: wrong429 } : undefined));
    const profile = resolveProfile({ base_url: t.base_url, clients: [{ client_id: 'a', client_secret: 'secret-a' }] }, { env: {} });
    const r = await runLoad({ scenario: 'user-read', profile, arrivalRate: 200, durationSec: 1.5, thresholds: { errorRateMax: 1 } });
    expect(r.conformance!.by_rule['ERR-BODY-SHAPE']).toBeGreaterThanOrEqual(1);
    expect(r.conformance!.by_rule['ERR-CATEGORY-STATUS']).toBeGreaterThanOrEqual(1);
    expect(r.conformance!.exchanges['ERR-BODY-SHAPE'][0]).toMatchObject({ op: 'getUserV1', status: 500, content_type: 'text/plain', response_body: 'upstream exploded' });
    expect(r.verdict.pass).toBe(false);
    expect(r.verdict.reasons.join('\n')).toMatch(/ERR-CATEGORY-STATUS on getUserV1/);
  });

  it('a JSON 200 labelled text/plain, a 200 that is not JSON and one off its schema are each named; a body in pieces and a mixed-case Content-Type pass', async () => {
    const user = { id: '00000000-0000-4000-8000-000000000000', user_id: '00000000-0000-4000-8000-000000000000', user_address: '0xabc', wallet_address: '0xabc' };
    const text = JSON.stringify(user);
    const faults: Fault[] = [
      { status: 200, body: text, headers: { 'Content-Type': 'text/plain' } },
      { status: 200, body: '{"id": 1' },
      { status: 200, body: JSON.stringify({ ...user, id: undefined }) },
      { status: 200, body: [text.slice(0, 20), text.slice(20)], headers: { 'CONTENT-TYPE': 'Application/JSON; charset=utf-8' } },
    ];
    const t = await target((n) => (n > 5 && n % 10 < faults.length ? faults[n % 10] : undefined));
    const profile = resolveProfile({ base_url: t.base_url, clients: [{ client_id: 'a', client_secret: 'secret-a' }] }, { env: {} });
    const r = await runLoad({ scenario: 'user-read', profile, arrivalRate: 300, durationSec: 1, thresholds: { errorRateMax: 1 } });
    const c = r.conformance!;
    expect(c.judged).toBe(c.answers);
    expect(c.exchanges['ENDPOINT-RESPONSE-SCHEMA'].some((x) => x.content_type === 'text/plain' && /Content-Type "text\/plain", expected application\/json/.test(x.detail))).toBe(true);
    expect(c.exchanges['ENDPOINT-RESPONSE-SCHEMA'].some((x) => /does not match the getUserV1:2XX schema/.test(x.detail))).toBe(true);
    expect(c.by_rule['GENERAL-TRANSPORT-JSON']).toBeGreaterThanOrEqual(1);
    // Three faulty answers in every ten after setup, and never the fourth (pieces, mixed case): nothing more is found.
    const tens = Math.floor(c.answers / 10);
    expect(c.findings).toBeGreaterThanOrEqual(3 * (tens - 1));
    expect(c.findings).toBeLessThanOrEqual(3 * (tens + 1));
  });

  it('thresholds per run, operation and rule (plan and flag) decide instead of the default; a conforming target passes', async () => {
    const plan = (thresholds: string) => `scenarios: [{ name: user-read }]\narrival_rate: 200\nduration: 1.2\nthresholds:\n${thresholds}\n`;
    const [faulty, f2, f3, f4, clean] = await Promise.all([faultyTarget(), faultyTarget(), faultyTarget(), faultyTarget(), target()]);
    const [lenient, perOp, perRule, flag, bad, ok] = await Promise.all([
      cli(['load', '--plan', 'p.yaml', '--target', faulty.base_url, '--no-progress'], { 'p.yaml': plan('  run: ["conformance_errors < 1000"]') }),
      cli(['load', '--plan', 'p.yaml', '--target', f2.base_url, '--no-progress'], { 'p.yaml': plan('  run: ["conformance_errors < 1000"]\n  operations:\n    getUserV1: ["conformance_errors < 1"]') }),
      cli(['load', '--plan', 'p.yaml', '--target', f3.base_url, '--no-progress'], { 'p.yaml': plan('  run: ["conformance_errors < 1000"]\n  rules:\n    ENDPOINT-RESPONSE-SCHEMA: ["conformance_errors < 1"]\n    ERR-BODY-SHAPE: ["conformance_errors < 1"]') }),
      cli(['load', 'user-read', '--target', f4.base_url, '--arrival-rate', '200', '--duration', '1.2', '--no-progress', '--conformance-errors-max', '1000', '--threshold', 'getUserV1 ENDPOINT-RESPONSE-SCHEMA: conformance_errors < 1']),
      cli(['load', 'user-read', '--target', faulty.base_url, '--threshold', 'NOPE-RULE: conformance_errors < 1']),
      cli(['load', 'user-read', '--target', clean.base_url, '--arrival-rate', '200', '--duration', '1', '--no-progress', '--json']),
    ]);
    expect(lenient.code, lenient.out).toBe(0);
    expect(perOp.code).toBe(1);
    expect(perOp.out).toMatch(/FAIL\s+getUserV1: conformance_errors < 1/);
    expect(perRule.code).toBe(1);
    expect(perRule.out).toMatch(/FAIL\s+ENDPOINT-RESPONSE-SCHEMA: conformance_errors < 1/);
    expect(perRule.out).toMatch(/pass\s+ERR-BODY-SHAPE: conformance_errors < 1 \(actual 0\)/);
    expect(flag.code).toBe(1);
    expect(flag.out).toMatch(/FAIL\s+ENDPOINT-RESPONSE-SCHEMA on getUserV1: conformance_errors < 1/);
    expect(bad.code).toBe(2);
    expect(ok.code, ok.out).toBe(0);
    const res = JSON.parse(ok.out) as LoadResult;
    expect(res.conformance).toMatchObject({ findings: 0, sample: 1 });
    expect(res.conformance!.judged).toBe(res.counts.responses);
  });

  it('--judge-sample 0.5 judges every other answer and says so; 0 turns judging off', async () => {
    const [clean, faulty] = await Promise.all([target(), faultyTarget()]);
    const half = await cli(['load', 'user-read', '--target', clean.base_url, '--arrival-rate', '200', '--duration', '1', '--no-progress', '--judge-sample', '0.5']);
    expect(half.code).toBe(0);
    expect(half.out).toMatch(/conformance\s+(\d+) of (\d+) answers judged \(sampled: --judge-sample 0.5\)/);
    const [, judged, answers] = /(\d+) of (\d+) answers judged/.exec(half.out)!;
    expect(Math.abs(Number(judged) * 2 - Number(answers))).toBeLessThanOrEqual(1);
    const off = await cli(['load', 'user-read', '--target', faulty.base_url, '--arrival-rate', '200', '--duration', '1', '--no-progress', '--judge-sample', '0', '--json']);
    expect(off.code).toBe(0);
    expect(JSON.parse(off.out).conformance).toBeUndefined();
  });
});

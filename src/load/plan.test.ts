// Load plans: schema-validated YAML; a bad plan is refused naming file, pointer and problem (exit 2);
// a breached threshold fails the run (exit 1), a met one passes.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { loadModel } from '../model/index.ts';
import { packagePath } from '../package/index.ts';
import { planOptions, readPlan } from './plan.ts';
import { everyNth, stallTarget, type StallTarget } from './testing.ts';

async function cli(argv: string[], files: Record<string, string>) {
  const cwd = await mkdtemp(join(tmpdir(), 'bc-plan-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(cwd, name), text);
  const c = captureIo({ env: { BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a' }, cwd });
  const code = await main(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

// The tests side by side: each is CLI runs of a second or two of arrivals at a fixed rate, mostly
// waiting. They share the target: the stalled GETs are every 20th it receives, so a run meets one stall
// in about 20 of its GETs however the runs interleave (a 1.5 s run at 100 a second sends 150).
describe.concurrent('load plans', () => {
  let t: StallTarget;
  beforeAll(async () => {
    // Every 20th GET takes 300 ms: p99 is about 300 ms, well under the budget.
    t = await stallTarget({ delayFor: everyNth(20, 300) });
  });
  afterAll(() => t.close());

  it('the shipped example plan is valid', async () => {
    const file = packagePath('examples/load/plan.yaml');
    const opts = planOptions(await readPlan(file), await loadModel(), file);
    expect(opts.loadModel).toBe('open');
    expect(opts.stages).toHaveLength(3);
    expect(opts.thresholds?.rules?.map((r) => r.expr)).toContain('p99 < 500');
    expect(opts.thresholds?.rules).toEqual(expect.arrayContaining([
      expect.objectContaining({ expr: 'p99 < 800 over 5s', window_s: 5 }),
      expect.objectContaining({ expr: 'error_rate < 0.2 over 2s', abort_on_fail: true, grace_s: 3 }),
      expect.objectContaining({ expr: 'conformance_errors < 1', rule: 'ENDPOINT-RESPONSE-SCHEMA' }),
    ]));
    expect(opts).toMatchObject({ arrivals: 'poisson', seed: 7, judgeSample: 1 });
  });

  it('refuses a bad plan with the file, the JSON pointer and the problem (exit 2)', async () => {
    const cases: [string, RegExp][] = [
      ['scenarios: [{ name: user-read }]\nduration: 1\nthresholds: { run: ["p99 is small"] }\n', /bad\.yaml(:\d+)? at \/thresholds\/run\/0: not a threshold/],
      ['scenarios: [{ name: user-read, weight: -1 }]\nduration: 1\n', /bad\.yaml(:\d+)? at \/scenarios\/0\/weight: /],
      ['scenarios: [{ name: nope }]\nduration: 1\n', /bad\.yaml(:\d+)? at \/scenarios\/0\/name: unknown scenario "nope"/],
      ['scenarios: [{ name: user-read }]\nduration: 1\nthresholds: { operations: { getUserV1: ["p99 < 5 over 10s"] } }\n', /bad\.yaml(:\d+)? at \/thresholds\/operations\/getUserV1\/0: threshold "p99 < 5 over 10s": windowed thresholds apply to the whole run/],
      ['scenarios: [{ name: user-read }]\nduration: 1\nthresholds: { rules: { NOPE-RULE: ["conformance_errors < 1"] } }\n', /bad\.yaml(:\d+)? at \/thresholds\/rules\/NOPE-RULE: "NOPE-RULE" is not a rule id/],
      ['scenarios: [{ name: user-read }]\nduration: 1\nthresholds: { operations: { getUserV9: ["p99 < 1"] } }\n', /bad\.yaml(:\d+)? at \/thresholds\/operations\/getUserV9: "getUserV9" is not an operationId/],
      ['scenarios: [{ name: user-read }]\nduraton: 1\n', /bad\.yaml(:\d+)? at \/: unknown property "duraton"/],
      ['scenarios: [{ name: user-read }]\nduration: 1\nstages: [{ duration: 1, target: 2 }]\n', /bad\.yaml(:\d+)? at \/: give either stages or duration/],
      ['scenarios: [\n', /bad\.yaml(:\d+)? at \/: invalid YAML/],
    ];
    for (const [text, want] of cases) {
      const r = await cli(['load', '--plan', 'bad.yaml', '--target', t.base_url], { 'bad.yaml': text });
      expect(r.code, text).toBe(2);
      expect(r.err, text).toMatch(want);
    }
  });

  it('a breached threshold exits 1 and names it; a met one exits 0; per operation too', async () => {
    const plan = (rules: string, ops = '') => `scenarios: [{ name: user-read }]\nmodel: open\narrival_rate: 100\nduration: 1.5\nthresholds:\n  run: [${rules}]\n${ops}`;
    const bad = await cli(['load', '--plan', 'p.yaml', '--target', t.base_url], { 'p.yaml': plan('"p99 < 100", "error_rate < 0.01"') });
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/threshold p99 < 100 breached \(actual \d+/);
    expect(bad.out).toMatch(/threshold +pass +error_rate < 0.01/);
    const opBad = await cli(['load', '--plan', 'p.yaml', '--target', t.base_url], { 'p.yaml': plan('"p50 < 5000"', '  operations: { getUserV1: ["max < 50"] }\n') });
    expect(opBad.code).toBe(1);
    expect(opBad.out).toMatch(/getUserV1: max < 50 breached/);
    const good = await cli(['load', '--plan', 'p.yaml', '--target', t.base_url], { 'p.yaml': plan('"p99 < 5000", "error_rate < 0.01"', '  operations: { getUserV1: ["max < 5000", "rps > 10"] }\n') });
    expect(good.code).toBe(0);
    expect(good.out).toMatch(/open model/);
  });

  it('a threshold over zero samples is inconclusive (exit 4, never a pass); a breach elsewhere still fails (exit 1)', async () => {
    // user-read sends getUserV1 only: a createVirtualCard threshold has nothing behind it.
    const plan = (run: string) => `scenarios: [{ name: user-read }]\nmodel: open\narrival_rate: 50\nduration: 1\nthresholds:\n  run: [${run}]\n  operations: { createVirtualCard: ["p99 < 5000", "conformance_errors < 1"] }\n`;
    const none = await cli(['load', '--plan', 'p.yaml', '--target', t.base_url, '--json'], { 'p.yaml': plan('"p99 < 5000"') });
    expect(none.code).toBe(4);
    const res = JSON.parse(none.out);
    expect(res.verdict).toMatchObject({ pass: false, outcome: 'inconclusive', reasons: [] });
    expect(res.verdict.inconclusive).toEqual([
      'INCONCLUSIVE: threshold createVirtualCard: p99 < 5000 judged nothing because the run sent no createVirtualCard request',
      'INCONCLUSIVE: threshold createVirtualCard: conformance_errors < 1 judged nothing because createVirtualCard got no answer in the run',
    ]);
    expect(res.verdict.thresholds).toEqual([
      expect.objectContaining({ expr: 'p99 < 5000', pass: true }),
      expect.objectContaining({ expr: 'p99 < 5000', operation: 'createVirtualCard', actual: null, pass: false, inconclusive: true }),
      expect.objectContaining({ expr: 'conformance_errors < 1', operation: 'createVirtualCard', actual: null, pass: false, inconclusive: true }),
    ]);
    const text = await cli(['load', '--plan', 'p.yaml', '--target', t.base_url], { 'p.yaml': plan('"p99 < 5000"') });
    expect(text.code).toBe(4);
    expect(text.out).toMatch(/threshold +INCONCLUSIVE +createVirtualCard: p99 < 5000 \(actual n\/a\)/);
    expect(text.out).toMatch(/verdict +INCONCLUSIVE \(exit 4[^\n]*\n +- INCONCLUSIVE: threshold createVirtualCard: p99 < 5000 judged nothing because/);
    const breached = await cli(['load', '--plan', 'p.yaml', '--target', t.base_url], { 'p.yaml': plan('"p99 < 0.001"') });
    expect(breached.code).toBe(1);
    expect(breached.out).toMatch(/verdict +FAIL\n +- threshold p99 < 0.001 breached[^\n]*\n +- INCONCLUSIVE: threshold createVirtualCard/);
  });

  it('stages ramp the arrival rate', async () => {
    const r = await cli(['load', '--plan', 'p.yaml', '--target', t.base_url, '--json'], {
      'p.yaml': 'scenarios: [{ name: user-read }]\nstart: 0\nstages: [{ duration: 1, target: 100 }, { duration: 1, target: 0 }]\n',
    });
    expect(r.code).toBe(0);
    const res = JSON.parse(r.out);
    expect(res.mode).toBe('open');
    // The integral of a 0 -> 100 -> 0 triangle over 2 s: 100 arrivals.
    expect(res.counts.attempts).toBe(100);
  });

  it('closed-model stages ramp connections up and down', async () => {
    const r = await cli(['load', '--plan', 'p.yaml', '--target', t.base_url, '--json'], {
      'p.yaml': 'scenarios: [{ name: user-read }]\nmodel: closed\nstart: 1\nstages: [{ duration: 1, target: 4 }, { duration: 0.5, target: 0 }]\n',
    });
    expect(r.code).toBe(0);
    const res = JSON.parse(r.out);
    expect(res.mode).toBe('closed');
    expect(res.config.connections).toBe(4);
    expect(res.counts.attempts).toBeGreaterThan(10);
    expect(res.counts.attempts).toBe(res.counts.responses);
    // Non-integer connection targets are refused.
    const bad = await cli(['load', '--plan', 'p.yaml', '--target', t.base_url], { 'p.yaml': 'scenarios: [{ name: user-read }]\nmodel: closed\nstages: [{ duration: 1, target: 2.5 }]\n' });
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/p\.yaml at \/stages: closed-model stage targets are connections/);
  });
});

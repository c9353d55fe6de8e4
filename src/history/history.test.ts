// History over real nights: results.json written by `baas-conform run` against the reference, with a
// fault switched on in some nights (the S2S token response without token_type: AUTH-S2S-TOKEN-RESPONSE
// fails). Night 2 regresses, night 3 is fixed, and the rule then flaps; against the reference itself the
// same flap is a toolkit bug. A foreign or other-version file is refused (exit 2), one run is
// inconclusive (exit 4), and history.json and history.html are checked (schema; CSP, no script).
import { createHash } from 'node:crypto';
import { mkdtemp as makeTemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validatorFor } from '../baseline/schemas.ts';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { startReference } from '../reference/index.ts';
import { buildHistory, type HistoryDoc, type LoadedRun, loadRuns, type Verdict } from './index.ts';

const temps: string[] = [];
const mkdtemp = async (prefix: string) => {
  const d = await makeTemp(prefix);
  temps.push(d);
  return d;
};
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

const CHECKS = ['auth.s2s.token-response', 'errors.token.client-id-missing'];
const RULE = 'AUTH-S2S-TOKEN-RESPONSE';
const FAULT = 'token.missing-token-type';

async function cli(cwd: string, args: string[]) {
  const c = captureIo({ env: {}, cwd });
  const code = await main(args, c.io);
  return { code, out: c.out(), err: c.err() };
}

/** One night: a fresh reference (with the fault or not) and a real run of CHECKS; returns its results.json. */
async function night(cwd: string, n: number, opts: { name?: string; fault?: boolean; extra?: string[] }): Promise<string> {
  const ref = await startReference({ ...(opts.name ? { name: opts.name } : {}), ...(opts.fault ? { faults: new Set([FAULT]) } : {}) });
  try {
    await writeFile(join(cwd, 'p.json'), JSON.stringify(ref.profile));
    const file = `night-${n}.json`;
    const r = await cli(cwd, ['run', '--profile', 'p.json', '--seed', String(n), '--report-dir', `r${n}`, '--json-out', file, ...CHECKS.flatMap((c) => ['--check', c]), ...(opts.extra ?? [])]);
    expect(r.code, r.out + r.err).toBe(opts.fault ? 1 : 0);
    return file;
  } finally {
    await ref.close();
  }
}

const rule = (h: HistoryDoc, id: string) => h.rules.find((t) => t.id === id)!;

/** A run as loadRuns gives it, with these check verdicts. */
function loaded(n: number, checks: Record<string, Verdict>): LoadedRun {
  const count = (v: Verdict) => Object.values(checks).filter((x) => x === v).length;
  const tally = { passed: count('pass'), failed: count('fail'), blocked: count('blocked'), skipped: count('skip') };
  return {
    run: { runId: `r${n}`, file: `r${n}.json`, seed: n, started: `2026-01-0${n}T00:00:00.000Z`, toolVersion: '0', baseUrl: 'https://sandbox.example', checks: tally, rules: tally },
    targetName: 'sandbox',
    checks: new Map(Object.entries(checks)),
    rules: new Map(),
  };
}

describe('history verdicts', () => {
  it('a latest run that judged nothing is inconclusive, not a green night', () => {
    const h = buildHistory([loaded(1, { a: 'pass' }), loaded(2, { a: 'skip' })]);
    expect(h.exit.code).toBe(4);
    expect(h.exit.reasons[0]).toMatch(/INCONCLUSIVE: history judged nothing because the latest run judged no check/);
    expect(buildHistory([loaded(1, { a: 'pass' }), loaded(2, { a: 'pass' })]).exit.code).toBe(0);
    expect(buildHistory([loaded(1, { a: 'pass' }), loaded(2, { a: 'fail' })]).exit.code).toBe(1);
  });

  it('vs the window: regressed only when every judged run there passed; new when none judged it', () => {
    const h = buildHistory([loaded(1, { a: 'fail', b: 'pass', c: 'skip' }), loaded(2, { a: 'pass', b: 'pass', c: 'skip' }), loaded(3, { a: 'fail', b: 'fail', c: 'fail' })], { window: 2 });
    const by = Object.fromEntries(h.checks.map((t) => [t.id, t]));
    expect([by.a.vsPrevious, by.a.vsWindow, by.a.flapping]).toEqual(['regressed', 'same', true]);
    expect([by.b.vsPrevious, by.b.vsWindow, by.b.flapping]).toEqual(['regressed', 'regressed', false]);
    expect([by.c.vsPrevious, by.c.vsWindow]).toEqual(['new', 'new']);
    expect(h.target.reference).toBe(false);
  });
});

describe('history of real nights', () => {
  it('night 2 regressed, night 3 fixed, then the rule flaps; exit codes, history.json and history.html', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'bc-history-'));
    const files = [await night(cwd, 1, { name: 'nightly' }), await night(cwd, 2, { name: 'nightly', fault: true }), await night(cwd, 3, { name: 'nightly' })];

    // Up to night 2: the rule regressed against the previous run and the window; exit 1.
    const two = await cli(cwd, ['history', files[1], files[0], '--out', 'h2']);
    expect(two.code, two.out + two.err).toBe(1);
    expect(two.out).toContain(`regressed ${RULE}`);
    const h2 = JSON.parse(await readFile(join(cwd, 'h2', 'history.json'), 'utf8')) as HistoryDoc;
    expect(h2.runs.map((r) => r.seed)).toEqual([1, 2]);
    expect(rule(h2, RULE)).toMatchObject({ verdicts: ['pass', 'fail'], vsPrevious: 'regressed', vsWindow: 'regressed', streak: { verdict: 'fail', runs: 1 }, flapping: false });
    expect(h2.exit.reasons[0]).toMatch(/regressed against the previous one/);

    // Night 3: fixed against the previous run; pass-fail-pass flaps; exit 0 (nothing regressed last night).
    const three = await cli(cwd, ['history', ...files, '--out', 'h3']);
    expect(three.code, three.out + three.err).toBe(0);
    const h3 = JSON.parse(await readFile(join(cwd, 'h3', 'history.json'), 'utf8')) as HistoryDoc;
    expect(validatorFor('history.schema.json')(h3)).toBe(true);
    expect(rule(h3, RULE)).toMatchObject({ verdicts: ['pass', 'fail', 'pass'], vsPrevious: 'fixed', vsWindow: 'same', flips: 2, flapping: true, streak: { verdict: 'pass', runs: 1 } });
    expect(rule(h3, 'ERR-TOKEN-CLIENT-ID-MISSING')).toMatchObject({ verdicts: ['pass', 'pass', 'pass'], vsPrevious: 'same', flapping: false, streak: { runs: 3 } });
    expect(h3.counts.rules.vsPrevious).toEqual({ new: 0, fixed: 1, regressed: 0 });
    expect(h3.target).toEqual({ name: 'nightly', reference: false });
    expect(h3.toolkitBugs).toEqual([]);
    expect(three.out).toContain('Flapping rules');

    // A window of 1 sees only night 2 before night 3: fixed against it, and one flip is no flap.
    const w1 = buildHistory(await loadRuns(files.map((f) => join(cwd, f)), cwd), { window: 1 });
    expect(rule(w1, RULE)).toMatchObject({ vsWindow: 'fixed', flips: 1, flapping: false });

    // The page: the same template machinery and hashed CSP as report.html; the flapping row marked.
    const html = await readFile(join(cwd, 'h3', 'history.html'), 'utf8');
    const css = html.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? '';
    const hash = createHash('sha256').update(css, 'utf8').digest('base64');
    const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]*)"/)?.[1]?.replace(/&#x27;/g, "'").replace(/&#x3D;/g, '=');
    expect(csp).toBe(`default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; base-uri 'none'; form-action 'none'`);
    expect(html).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
    expect(html).toMatch(new RegExp(`<tr data-id="${RULE}" data-flapping="true" class="flap">`));
    expect(html).toContain('<svg class="trend"');
    expect(html.match(/<rect class="s-failed"/g)).toHaveLength(1);
  }, 120_000);

  it('a flap against the reference itself is a toolkit bug: exit 1 saying so', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'bc-history-ref-'));
    const files = [await night(cwd, 1, {}), await night(cwd, 2, { fault: true }), await night(cwd, 3, {})];
    const r = await cli(cwd, ['history', ...files, '--out', 'h']);
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toContain(`TOOLKIT BUG`);
    const h = JSON.parse(await readFile(join(cwd, 'h', 'history.json'), 'utf8')) as HistoryDoc;
    expect(h.target).toEqual({ name: 'reference', reference: true });
    expect(h.toolkitBugs).toEqual([RULE]);
    expect(await readFile(join(cwd, 'h', 'history.html'), 'utf8')).toContain('data-value="toolkit-bug"');
  }, 120_000);

  it('run --history DIR appends each night and keeps the last --history-keep runs', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'bc-history-run-'));
    const extra = ['--history', 'hist', '--history-keep', '3'];
    for (const [n, fault] of [[1, false], [2, true], [3, false], [4, false]] as const) await night(cwd, n, { name: 'nightly', fault, extra });
    expect(await readdir(join(cwd, 'hist', 'runs'))).toHaveLength(3);
    const h = JSON.parse(await readFile(join(cwd, 'hist', 'history.json'), 'utf8')) as HistoryDoc;
    expect(h.runs.map((r) => r.seed)).toEqual([2, 3, 4]);
    expect(rule(h, RULE)).toMatchObject({ verdicts: ['fail', 'pass', 'pass'], streak: { verdict: 'pass', runs: 2 }, vsPrevious: 'same', flips: 1 });
    expect(await readFile(join(cwd, 'hist', 'history.html'), 'utf8')).toContain('<svg class="trend"');
    const bad = await cli(cwd, ['run', '--history', 'hist', '--history-keep', '0']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--history-keep must be a whole number');
  }, 120_000);

  it('one run is inconclusive (exit 4); a foreign file, another version or another target is refused (exit 2)', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'bc-history-bad-'));
    const one = await night(cwd, 1, { name: 'nightly' });
    const single = await cli(cwd, ['history', one, '--out', 'h']);
    expect(single.code).toBe(4);
    expect(single.out).toMatch(/INCONCLUSIVE: history judged nothing because it was given 1 run/);

    const doc = JSON.parse(await readFile(join(cwd, one), 'utf8'));
    await writeFile(join(cwd, 'v2.json'), JSON.stringify({ ...doc, version: 2 }));
    await writeFile(join(cwd, 'foreign.json'), JSON.stringify({ results: { tool: { name: 'other' } } }));
    await writeFile(join(cwd, 'other-target.json'), JSON.stringify({ ...doc, runId: 'other', target: { ...doc.target, name: 'staging' } }));
    await writeFile(join(cwd, 'shard.json'), JSON.stringify({ ...doc, runId: 'shard', shard: '2/4' }));
    for (const [file, message] of [
      ['v2.json', /results format version 2 is not supported/],
      ['foreign.json', /kind is undefined, expected "baas-conform\/results"/],
      ['other-target.json', /a history is of one target, these files are of 2/],
      ['shard.json', /different shards \(none, 2\/4\): keep one history per shard/],
    ] as const) {
      const r = await cli(cwd, ['history', one, file, '--out', 'bad']);
      expect(r.code, file).toBe(2);
      expect(r.err, file).toMatch(message);
    }
    expect((await readdir(cwd)).includes('bad')).toBe(false);
    const w = await cli(cwd, ['history', one, '--window', '0']);
    expect(w.code).toBe(2);
    expect(w.err).toContain('--window must be a whole number');
  }, 120_000);
});

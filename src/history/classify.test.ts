// Flake classes by seed, each shown on a loopback target made to behave that way: a proxy in front of
// the reference answers 200 with a token to the malformed token requests of errors.body.shape
// (ERR-BODY-SHAPE) — always (deterministic), on every other execution of the check whatever its inputs
// (target-flaky), or only when the generated client_id is a number (generator-found: with one
// fast-check run per property, the seed decides the input). Two real nights each (a passing one, a
// failing one), then `classifyFlakes` replays them against the behaviour; the CLI path writes the class
// into history.json and history.html.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { validatorFor } from '../baseline/schemas.ts';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { startInterceptProxy, type InterceptProxy, type ProxyRequest } from '../mutants/proxy.ts';
import type { TargetProfile } from '../profile/types.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { JsonReporter } from '../report/index.ts';
import { classifyFlakes, flakeCandidates, loadRuns, targetReplay, type HistoryDoc } from './index.ts';

const CHECK = 'errors.body.shape';
const RUNS = 1;
const TOKEN_OK = JSON.stringify({ access_token: 'accepted-anything', token_type: 'Bearer', expires_in: 172800 });

/** A token request some field of which is missing or not a string: what the check sends, never the runner. */
const malformed = (req: ProxyRequest) => {
  if (req.operationId !== 'createToken' || !req.json || typeof req.json !== 'object' || Array.isArray(req.json)) return false;
  const b = req.json as Record<string, unknown>;
  return !['client_id', 'client_secret', 'grant_type'].every((f) => typeof b[f] === 'string');
};
const accept = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: TOKEN_OK });

let ref: ReferenceServer;
const proxies: InterceptProxy[] = [];
let cwd: string;
const variant = (base: string): TargetProfile => ({ ...ref.profile, name: 'loopback-variant', base_url: base });

beforeAll(async () => {
  ref = await startReference();
  cwd = await mkdtemp(join(tmpdir(), 'bc-classify-'));
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await ref.close();
  await rm(cwd, { recursive: true, force: true });
});

async function behaviour(faulty: (req: ProxyRequest, traces: string[]) => boolean): Promise<TargetProfile> {
  const traces: string[] = [];
  const p = await startInterceptProxy(ref.profile, {
    request(req) {
      if (!malformed(req)) return;
      // One trace per check execution (src/client/trace.ts): the n-th execution that sends malformed bodies.
      const trace = (req.headers.traceparent ?? '').split('-')[1] ?? '';
      if (!traces.includes(trace)) traces.push(trace);
      return faulty(req, traces) ? accept() : undefined;
    },
  });
  proxies.push(p);
  return variant(p.baseUrl);
}

let nightNo = 0;
async function night(profile: TargetProfile, seed: number): Promise<{ file: string; verdict: string }> {
  const file = join(cwd, `night-${++nightNo}.json`);
  const out = await runConformance({ profile, env: {}, seed, checks: [CHECK], numRuns: RUNS, reporters: [new JsonReporter(file)] });
  return { file, verdict: out.results[0].verdict };
}

async function classify(files: string[], target: TargetProfile) {
  const runs = await loadRuns(files, cwd);
  return classifyFlakes(flakeCandidates(runs, 5), targetReplay({ profile: target, numRuns: RUNS }), 3);
}

describe('history --classify', () => {
  it('deterministic: both seeds fail on every replay (the target changed); through the CLI into history.json and history.html', async () => {
    const always = await behaviour(() => true);
    const a = await night(variant(ref.profile.base_url), 11);
    const b = await night(always, 12);
    expect([a.verdict, b.verdict]).toEqual(['pass', 'fail']);
    await writeFile(join(cwd, 'always.json'), JSON.stringify(always));
    const c = captureIo({ env: {}, cwd });
    const code = await main(['history', a.file, b.file, '--classify', '--profile', 'always.json', '--runs', String(RUNS), '--out', 'h-det'], c.io);
    expect(code, c.out() + c.err()).toBe(1);
    const h = JSON.parse(await readFile(join(cwd, 'h-det', 'history.json'), 'utf8')) as HistoryDoc;
    expect(validatorFor('history.schema.json')(h)).toBe(true);
    expect(h.flakes).toEqual([expect.objectContaining({ check: CHECK, class: 'deterministic', replays: { failingSeed: ['fail', 'fail', 'fail'], passingSeed: ['fail', 'fail', 'fail'] } })]);
    expect(c.out()).toMatch(/DETERMINISTIC\s+errors\.body\.shape/);
    expect(await readFile(join(cwd, 'h-det', 'history.html'), 'utf8')).toContain(`<tr data-check="${CHECK}" data-class="deterministic">`);
  }, 120_000);

  it('target-flaky: the same seed gives different outcomes', async () => {
    // Every other execution of the check is accepted wrongly, whatever it sends: the first one fails.
    const flaky = await behaviour((_req, traces) => traces.length % 2 === 1);
    const a = await night(variant(ref.profile.base_url), 21);
    const b = await night(flaky, 22);
    expect([a.verdict, b.verdict]).toEqual(['pass', 'fail']);
    const [f] = await classify([a.file, b.file], flaky);
    expect(f).toMatchObject({ check: CHECK, class: 'target-flaky', failing: { seed: 22 }, passing: { seed: 21 } });
    expect(f.replays.failingSeed).toContain('pass');
  }, 120_000);

  it('generator-found: the failing seed fails and the passing seed passes, every time', async () => {
    // Wrong only for a generated client_id that is a number: which seeds generate one is the generator's.
    const gen = await behaviour((req) => typeof (req.json as Record<string, unknown>).client_id === 'number');
    const seen: Record<string, number> = {};
    for (let seed = 1; seed <= 80 && !(seen.pass && seen.fail); seed++) {
      const r = await night(gen, seed);
      if ((r.verdict === 'pass' || r.verdict === 'fail') && !seen[r.verdict]) seen[r.verdict] = seed;
    }
    expect(seen.pass && seen.fail, `seeds found: ${JSON.stringify(seen)}`).toBeTruthy();
    const a = await night(gen, seen.pass);
    const b = await night(gen, seen.fail);
    const [f] = await classify([a.file, b.file], gen);
    expect(f).toMatchObject({ check: CHECK, class: 'generator-found', replays: { failingSeed: ['fail', 'fail', 'fail'], passingSeed: ['pass', 'pass', 'pass'] } });
  }, 180_000);
});

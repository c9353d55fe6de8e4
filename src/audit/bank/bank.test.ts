// The client bank on real loopback servers: the conforming sample client passes every client rule,
// each faulty mode is caught naming exactly the rule it breaks (a recommended rule: a warning, exit 1
// under strict), each benign mode stays clean, and each partner application on a real HTTP library is
// judged rule by rule as libraries.ts expects, which is the table of docs/certify-your-client.md.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../model/index.ts';
import { PACKAGE_ROOT } from '../../package/index.ts';
import { DEFAULT_MIN_EXERCISED } from '../verdict.ts';
import { DEFAULT_PLAN } from '../plan.ts';
import { auditLibrary, BANK_DURATION_MS, BANK_ENTRIES, BANK_MODES, bankDuration, expectedExits, runBank } from './index.ts';
import { LIBRARY_CLIENTS, libraryTable } from './libraries.ts';
import { FAULTY, type ClientMode } from './modes.ts';

const TABLE = /<!-- library-clients: src\/audit\/bank\/bank\.test\.ts holds it equal to libraryTable\(\) -->\n([\s\S]*?)\n<!-- \/library-clients -->/;

describe('client bank', () => {
  it('docs/certify-your-client.md shows the library clients with the verdicts the bank expects', async () => {
    const doc = await readFile(path.join(PACKAGE_ROOT, 'docs', 'certify-your-client.md'), 'utf8');
    expect(TABLE.exec(doc)?.[1]).toBe(libraryTable());
    const model = await loadModel();
    // Every testable client rule has a row; every default configuration fails the audit, naming a required rule.
    for (const c of LIBRARY_CLIENTS) expect(Object.keys(c.expected).sort()).toEqual(model.clientRules.filter((r) => r.testable).map((r) => r.id).sort());
    // The five most common default configurations of issue 33: each fails, naming token backoff.
    const defaults = LIBRARY_CLIENTS.filter((x) => x.commonDefault);
    expect(defaults.map((c) => c.id).sort()).toEqual(['axios-retry', 'got', 'ky', 'openapi-fetch', 'undici-retry-agent']);
    for (const c of defaults) {
      expect(expectedExits(c).exitCode, c.id).toBe(1);
      expect(c.expected['CLIENT-TOKEN-BACKOFF'][0], c.id).toBe('fail');
    }
    // At least one documented configuration that follows the spec passes every rule it exercises.
    expect(LIBRARY_CLIENTS.filter((c) => c.packages.length && expectedExits(c).strictExitCode === 0).map((c) => c.id)).toContain('ky-spec');
  });

  it('a library client whose package is not installed is reported not available, and no audit runs', async () => {
    const r = await auditLibrary({ ...LIBRARY_CLIENTS[0], id: 'absent', packages: ['baas-conform-absent-package'] });
    expect(r).toMatchObject({ mode: 'lib:absent', ok: true, caught: [] });
    expect(r.unavailable).toMatch(/^not available: baas-conform-absent-package not installed/);
    expect(r.verdict).toBeUndefined();
  });

  // The two audits below only wait (Retry-After, stalls, renewals), each on its own servers: side by side.
  it.concurrent('a default configuration run too briefly to meet the renewal bursts ends inconclusive (exit 4) naming the rules it never showed, and fails under --strict', async () => {
    // Briefly: tokens live a minute, so the run ends long before the first renewal and its bursts, however
    // slowly a loaded host runs the flow (with the default 9 s a slow flow reached the refresh buffer).
    const plan = { ...DEFAULT_PLAN, scale: { ...DEFAULT_PLAN.scale, token_lifetime_seconds: 60 } };
    const r = await auditLibrary(LIBRARY_CLIENTS.find((c) => c.id === 'undici-retry-agent')!, 3000, plan);
    const judged = r.verdict!.counts.pass + r.verdict!.counts.fail + r.verdict!.counts.warn;
    expect(judged, r.verdict!.inconclusive).toBeLessThan(DEFAULT_MIN_EXERCISED);
    expect(r.verdict!.counts.fail).toBe(0);
    expect(r.exitCode).toBe(4);
    expect(r.verdict!.inconclusive).toMatch(/fewer than the floor of \d+ \(--min-exercised\): not exercised .*CLIENT-TOKEN-BACKOFF \(/);
    // Its warnings (Retry-After, timeout) fail it under --strict: a finding decides over a lack of evidence.
    expect(r.strictExitCode).toBe(1);
  }, 60_000);

  it.concurrent('catches every faulty client by its rule, leaves the others clean, and judges each library client as expected', async () => {
    const model = await loadModel();
    // Each audit mostly waits out the plan's Retry-After, stall and token renewals (the whole bank is
    // about 10 s of CPU): the long modes (renewals, ~30 s) start first, all at once, and five more
    // slots take the short ones (~8 s each) beside them, so the modes end with the library clients
    // (p-retry's 1-2-4-8-16 s waits through a renewal burst, ~45 s) instead of after them. The timeout
    // modes go last: short-timeout gives up after 300 ms, less than the event loop's lag while twenty
    // audits start at once on a loaded host (load 24: its first token call timed out before it could
    // read the Retry-After it was answered), and no-timeout waits out the 4 s stall and so meets a
    // renewal burst, whose waits a lagging loop cuts (load 19: it failed CLIENT-TOKEN-BACKOFF too).
    const TIMEOUT_MODES = ['no-timeout', 'short-timeout'];
    const weight = (e: string) => (e.startsWith('lib:') ? BANK_DURATION_MS : bankDuration(e as ClientMode)) - (TIMEOUT_MODES.includes(e) ? 1 : 0);
    const longestFirst = [...BANK_ENTRIES].sort((a, b) => weight(b) - weight(a));
    const long = BANK_MODES.filter((m) => bankDuration(m) > 0).length;
    const results = await runBank(longestFirst, long + 5);
    const table = results.map((r) => `${r.mode}: caught [${r.caught.join(', ')}] exit ${r.exitCode} strict ${r.strictExitCode}${r.mismatches?.length ? ` mismatches ${r.mismatches.join('; ')}` : ''}`);
    expect(results.filter((r) => !r.ok).map((r) => `${r.mode} expected ${r.expected ?? (r.mode.startsWith('lib:') ? 'libraries.ts' : 'clean')}, ${table.find((t) => t.startsWith(`${r.mode}:`))}`)).toEqual([]);
    const conforming = results.find((r) => r.mode === 'none')!;
    // The conforming client exercises every testable rule but the pair rule (it never sends both names).
    expect(conforming.verdict!.rules.filter((r) => r.outcome === 'not-exercised').map((r) => r.id)).toEqual(['CLIENT-ALIAS-PAIR-MATCH']);
    for (const [mode, rule] of Object.entries(FAULTY)) {
      const r = results.find((x) => x.mode === mode)!;
      expect(r.exitCode, mode).toBe(model.clientRule(rule).level === 'required' ? 1 : 0);
      const outcome = r.verdict!.rules.find((x) => x.id === rule)!;
      expect(outcome.exchanges.length + (outcome.deliveries?.length ?? 0), `${mode}: the verdict names its exchanges`).toBeGreaterThan(0);
    }
    // Backoff is judged on what the application sends as much as on the library's retries: the default
    // configurations' token requests after a 429 are the application's, and they fail the rule.
    // A source checkout has every library (devDependencies): none is skipped.
    expect(results.filter((r) => r.unavailable).map((r) => r.mode)).toEqual([]);
    for (const c of LIBRARY_CLIENTS.filter((x) => x.expected['CLIENT-TOKEN-BACKOFF'][0] === 'fail')) {
      const r = results.find((x) => x.mode === `lib:${c.id}`)!;
      expect(r.verdict!.rules.find((x) => x.id === 'CLIENT-TOKEN-BACKOFF')?.message, c.id).toMatch(/no burst did/);
    }
  }, 300_000);
});

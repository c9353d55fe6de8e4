// The engine against hostile targets (src/mutants/hostile.ts): servers that hang, reset, send broken
// JSON, a 20 MB body, the wrong content type, or scripts in their error texts. The engine must finish
// (a hang is the test timeout's), fail the affected checks with the cause, never crash, stop reading
// a huge body at the limit, and render the hostile text inert in the HTML report. No wall-time or heap
// bound: both depend on the machine and the rest of the process.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../checks/types.ts';
import { CLIENT_DEFAULTS } from '../client/index.ts';
import type { CheckResult } from '../events/index.ts';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import { HtmlReporter } from '../report/index.ts';
import { runChecks, type RunOutcome } from '../runner/index.ts';
import { loadChecks } from '../../suites/index.ts';
import { HOSTILE_KINDS, startHostileTarget, type HostileKind } from './hostile.ts';

const BUDGET_MS = 1500;
/** One socket read: how far past the body limit the client may have read when it refuses. */
const READ_CHUNK = 64 * 1024;

/** Safe checks that read config / validation rules and the token endpoint (rule ids are stable; check ids may be renamed). */
const RULES = ['ENDPOINT-CONFIG-READS', 'AUTH-S2S-BEARER-ACCEPTED', 'ERR-S2S-AUTH-HEADER-MISSING', 'AUTH-S2S-TOKEN-RESPONSE'];

/** What a failing check must show for each kind (cause code, or a message fragment). */
const EXPECTED: Record<HostileKind, (r: CheckResult) => boolean> = {
  hang: (r) => r.failure?.cause === 'TIMEOUT',
  reset: (r) => r.failure?.cause === 'CONNECTION_RESET',
  'malformed-json': (r) => /json/i.test(r.failure?.message ?? ''),
  // Over the client's body cap: no spec rule sets a size, so the check is blocked with the cause, naming no rule (src/runner/causes.ts unreadableAnswer).
  'huge-body': (r) => r.verdict === 'blocked' && (r.blocked?.message ?? '').includes('BODY_TOO_LARGE') && r.blocked?.rules.length === 0,
  // The check's own content-type assertion, or the audit of every answer ("body is not JSON").
  'wrong-content-type': (r) => /content-type|not (a )?json/i.test(r.failure?.message ?? ''),
  // The failure carries the hostile text as data (so the HTML assertions below see it escaped).
  'script-in-errors': (r) => JSON.stringify(r.failure ?? {}).includes('<script>alert('),
};

let model: Model;
let checks: Check[];
let dir: string;

beforeAll(async () => {
  model = await loadModel();
  checks = (await loadChecks()).filter((c) => c.safe && c.rules.some((r) => RULES.includes(r)));
  dir = await mkdtemp(join(tmpdir(), 'baas-hostile-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function runAgainst(kind: HostileKind, html?: string): Promise<{ outcome?: RunOutcome; error?: unknown; ms: number }> {
  const target = await startHostileTarget(kind);
  const began = performance.now();
  try {
    const profile = resolveProfile(
      {
        name: `hostile-${kind}`,
        base_url: target.baseUrl,
        clients: [
          { client_id: 'dummy-client-a', client_secret: 'dummy-secret-a' },
          { client_id: 'dummy-client-b', client_secret: 'dummy-secret-b' },
        ],
      },
      { env: {} },
      `hostile ${kind}`,
    );
    const reporters = html ? [new HtmlReporter(html)] : [];
    const outcome = await runChecks({ profile, model, seed: 7, timeoutBudgetMs: BUDGET_MS, concurrency: 4, checkTimeoutMs: 20_000 }, checks, reporters);
    return { outcome, ms: performance.now() - began };
  } catch (error) {
    return { error, ms: performance.now() - began };
  } finally {
    await target.close();
  }
}

describe('engine against hostile targets', () => {
  it('has checks to run', () => {
    expect(checks.length).toBeGreaterThanOrEqual(3);
  });

  for (const kind of HOSTILE_KINDS) {
    it(`survives ${kind}`, async () => {
      const html = kind === 'script-in-errors' ? join(dir, 'report.html') : undefined;
      const { outcome, error, ms } = await runAgainst(kind, html);
      if (process.env.HOSTILE_DEBUG) console.log(kind, Math.round(ms), error ? String(error) : outcome!.results.map((r) => `${r.checkId}:${r.verdict}:${r.failure?.cause ?? ""}:${(r.failure?.message ?? "").slice(0, 80)}`));
      // Every hostile target answers the preflight token request (or answers it with a 400 the checks
      // then report), so the run must reach the checks: an error here is a failure, never a pass.
      expect(error, String(error)).toBeUndefined();
      const results = outcome!.results;
      // A huge body judges nothing (blocked); every other hostility fails the checks it reaches.
      const failed = results.filter((r) => r.verdict === (kind === 'huge-body' ? 'blocked' : 'fail'));
      expect(failed.length, `no check failed against ${kind}`).toBeGreaterThan(0);
      if (kind === 'huge-body') expect(results.filter((r) => r.verdict === 'fail').map((r) => `${r.checkId}: ${r.failure?.message}`)).toEqual([]);
      // Nothing died as a bug of the engine or the checks.
      for (const r of failed) expect(r.failure?.cause, `${r.checkId}: ${r.failure?.message}`).not.toBe('CHECK_ERROR');
      // Every failure shows the hostility as its cause.
      for (const r of failed) expect(EXPECTED[kind](r), `${r.checkId} failed without the ${kind} cause: ${r.failure?.cause} ${r.failure?.message}`).toBe(true);
      if (kind === 'huge-body') {
        // Memory, measured on what the client held: each refusal came within one read past the limit.
        for (const r of failed) {
          const read = Number(/refused after reading (\d+) bytes/.exec(r.blocked?.message ?? '')?.[1]);
          expect(read, `${r.checkId}: ${r.blocked?.message}`).toBeGreaterThan(CLIENT_DEFAULTS.maxBodyBytes);
          expect(read, `${r.checkId}: ${r.blocked?.message}`).toBeLessThanOrEqual(CLIENT_DEFAULTS.maxBodyBytes + READ_CHUNK);
        }
      }
      if (html) {
        const text = await readFile(html, 'utf8');
        expect(text).not.toMatch(/<script/i);
        expect(text).not.toMatch(/<img src=x/i);
        expect(text).toContain('&lt;script&gt;');
      }
    });
  }
});

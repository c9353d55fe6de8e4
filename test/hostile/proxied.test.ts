// The whole suite against the embedded reference behind a hostile proxy (test/hostile/proxy.ts): a
// bounded number of answers are replaced by a slow drip, a gzip bomb, a 1e6-deep JSON array, a storm
// of 429s or a redirect to another host (429 storms: rate-limit.test.ts). Each run must end (a hang is the test timeout's) with no
// unhandled rejection and no check crash (CHECK_ERROR credited to every rule), and every check that
// did not pass must name the target's fault: the transport cause and the rule the hostile answer
// broke. Checks the proxy left alone must pass (no collateral damage). Memory is bounded by what the
// client decided, not by the process heap (which counts the rest of the suite and GC timing): the
// client unit tests measure the bytes read and decoded before a refusal (src/client/hostile.test.ts),
// and the peak memory of a bomb is a benchmark figure (bench/).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/events/index.ts';
import { BUDGET_MS, describeBad, pathsOf, runBehindProxy, type HostileRun } from './harness.ts';

const JSON_RULE = 'GENERAL-TRANSPORT-JSON';
const TIMEOUT_RULE = 'LIMIT-REQUEST-TIMEOUT';

function debug(name: string, run: HostileRun): void {
  if (!process.env.HOSTILE_DEBUG) return;
  console.log(`${name}: ${Math.round(run.ms)} ms, hits ${run.proxy.hits.length}/${run.proxy.eligible}, ${run.result?.summary.passed}/${run.result?.summary.total} passed, error ${String(run.error ?? '')}\n${describeBad(run)}`);
}

/** What every hostile run must show, whatever the hostility. */
function expectBounded(run: HostileRun): void {
  expect(run.error, String(run.error)).toBeUndefined();
  expect(run.unhandled.map(String)).toEqual([]);
  // No secret reaches the results or the recorded exchanges (what reports are made of).
  const recorded = JSON.stringify([run.result!.results, run.exchanges]);
  expect(run.secrets.length).toBeGreaterThan(2);
  expect(recorded, 'token requests (which carry a secret) are among the recorded exchanges').toContain('client_secret');
  for (const secret of run.secrets) expect(recorded.includes(secret), 'a profile secret reached the results').toBe(false);
  const crashes = run.result!.results.filter((r) => r.failure?.cause === 'CHECK_ERROR' || r.failure?.cause === 'CHECK_TIMEOUT');
  expect(crashes.map((r) => `${r.checkId}: ${r.failure?.message}`)).toEqual([]);
  // The proxy spoiled some answers, so something must have failed, and only where it did: every
  // check that did not pass points at a path that got a hostile answer (a spoiled shared fixture may
  // fail several checks, so the count may exceed the hits).
  expect(run.proxy.hits.length).toBeGreaterThan(0);
  expect(run.bad.length, describeBad(run)).toBeGreaterThan(0);
  const hostile = new Set(run.proxy.hits.map((h) => h.split(' ')[1]));
  for (const r of run.bad) expect(pathsOf(r).some((p) => hostile.has(p)), `${r.checkId} fails on no hostile path\n${describeBad(run)}`).toBe(true);
}

/** A failed check carries `cause` and names only `rule`; a blocked one says the cause in its message. */
function namesFault(r: CheckResult, cause: string, rule: string): boolean {
  if (r.verdict === 'fail') return r.failure?.cause === cause && r.failure.rules.length === 1 && r.failure.rules[0] === rule && r.failure.rulesNamed === true;
  if (r.verdict === 'blocked') return (r.blocked?.message ?? '').includes(cause);
  return false;
}

describe('the full suite behind a hostile proxy', () => {
  it('slow drip: a body trickled past the budget fails as TIMEOUT naming the section 8 timeout rule', async () => {
    const run = await runBehindProxy({ misbehaviour: 'drip', every: 9, maxHits: 8 });
    debug('drip', run);
    expectBounded(run);
    for (const r of run.bad) expect(namesFault(r, 'TIMEOUT', TIMEOUT_RULE), `${r.checkId}\n${describeBad(run)}`).toBe(true);
    // Each drip is cut by the budget the client armed (the socket keeps receiving bytes, so an idle
    // timer alone would never fire: the drip would end at the proxy's close, as a reset, not a
    // TIMEOUT). Asserted on what the client decided (the cause and the budget it names), not on wall
    // time, which a busy machine stretches.
    const cut = run.exchanges.filter((x) => x.error?.code === 'TIMEOUT');
    expect(cut.length).toBeGreaterThanOrEqual(run.proxy.hits.length);
    for (const x of cut) expect(x.error?.message).toContain(`within ${BUDGET_MS} ms`);
  }, 120_000);

  it('gzip bomb: 1.5 GiB behind Content-Encoding gzip is refused as BODY_TOO_LARGE', async () => {
    const run = await runBehindProxy({ misbehaviour: 'gzip-bomb', every: 7, maxHits: 10 });
    debug('gzip-bomb', run);
    expectBounded(run);
    // Over the client's body limit is not a spec rule (the spec sets no size), and an unread answer
    // judges nothing: every affected check is blocked with the cause, naming no rule, never failed.
    for (const r of run.bad) {
      expect(r.verdict, `${r.checkId}\n${describeBad(run)}`).toBe('blocked');
      expect(r.blocked?.message ?? '', r.checkId).toContain('BODY_TOO_LARGE');
      expect(r.blocked?.message ?? '', r.checkId).toMatch(/decodes to more than the \d+-byte limit/);
      // The decoder stopped at the limit, not after the 1.5 GiB (src/client/hostile.test.ts measures the bytes).
      expect(r.blocked?.message ?? '', r.checkId).toContain('decoding stopped at the limit');
      expect(r.blocked?.rules, r.checkId).toEqual([]);
    }
  }, 120_000);

  it('1e6-deep JSON array: refused as BODY_TOO_DEEP naming the JSON-body rule, never a RangeError crash', async () => {
    const run = await runBehindProxy({ misbehaviour: 'deep-json', every: 7, maxHits: 10 });
    debug('deep-json', run);
    expectBounded(run);
    for (const r of run.bad) expect(namesFault(r, 'BODY_TOO_DEEP', JSON_RULE), `${r.checkId}\n${describeBad(run)}`).toBe(true);
    expect(JSON.stringify(run.result!.results)).not.toMatch(/RangeError|Maximum call stack/);
  }, 120_000);
});

describe('redirects to another host', () => {
  let other: Server;
  const seen: { auth?: string; url?: string }[] = [];
  afterAll(async () => {
    other?.closeAllConnections();
    await new Promise((r) => other?.close(r));
  });

  it('are never followed: the other host sees no request, no Authorization; the 307 is the failure', async () => {
    other = createServer((req, res) => {
      seen.push({ auth: req.headers.authorization, url: req.url });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    // localhost, not 127.0.0.1: a different host name, as a cross-origin redirect would have.
    const redirectTo = `http://localhost:${(other.address() as AddressInfo).port}`;
    const run = await runBehindProxy({ misbehaviour: 'redirect', every: 7, maxHits: 10, redirectTo });
    debug('redirect', run);
    expectBounded(run);
    expect(seen).toEqual([]);
    for (const r of run.bad) {
      const text = `${r.failure?.message ?? ''} ${r.blocked?.message ?? ''} ${r.failure?.exchange?.response?.status ?? ''} ${r.blocked?.exchange?.response?.status ?? ''}`;
      expect(text, `${r.checkId}\n${describeBad(run)}`).toMatch(/307/);
    }
  }, 120_000);
});

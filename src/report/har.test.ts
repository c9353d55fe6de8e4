import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { describeErrors, validatorFor } from '../baseline/schemas.ts';
import type { RunEvent } from '../events/index.ts';
import { secretsOf } from '../profile/mask.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { startReference } from '../reference/index.ts';
import { HarReporter, type Har } from './har.ts';

const validate = validatorFor('har.schema.json');
let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'baas-har-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** A HAR of a real run; also the exchange events it was built from and the profile's secrets. */
async function harOf(file: string, options: Parameters<typeof runConformance>[0]) {
  const exchanges: Extract<RunEvent, { type: 'exchange' }>['exchange'][] = [];
  let profile: ResolvedProfile | undefined;
  const outcome = await runConformance({
    seed: 5,
    ...options,
    reporters: [new HarReporter(join(dir, file))],
    onEvent: (e) => void (e.type === 'exchange' && exchanges.push(e.exchange)),
    onTarget: (t) => (profile = t.profile),
  });
  const text = await readFile(join(dir, file), 'utf8');
  return { har: JSON.parse(text) as Har, text, exchanges, outcome, secrets: secretsOf(profile) };
}

describe('run --har: HAR 1.2 of every exchange', () => {
  it('writes every exchange of a run on the reference, valid HAR 1.2, with _check/_rules/_verdict and no secret', async () => {
    const { har, text, exchanges, outcome, secrets } = await harOf('pass.har', { checks: ['errors.token.*', 'auth.s2s.token-response'] });
    expect(validate(har), describeErrors(validate.errors)).toBe(true);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('baas-conform');
    expect(har.log.entries.length).toBe(exchanges.length);
    expect(har.log.entries.length).toBeGreaterThan(outcome.results.length);
    const byId = new Map(outcome.results.map((r) => [r.checkId, r]));
    for (const e of har.log.entries) {
      const result = byId.get(e._check);
      expect(result, e._check).toBeDefined();
      expect(e._rules).toEqual(result!.rules);
      expect(e._verdict).toBe(result!.verdict);
      expect(e.request.url.startsWith('http://127.0.0.1')).toBe(true);
    }
    expect(new Set(har.log.entries.map((e) => e._check))).toEqual(new Set(outcome.results.filter((r) => r.requests > 0).map((r) => r.checkId)));
    // The token requests carry client secrets and the answers carry tokens: masked, as in the reports.
    const tokenPost = har.log.entries.find((e) => e.request.postData?.text.includes('client_secret'));
    expect(tokenPost?.request.postData?.text).toContain('***');
    expect(secrets.length).toBeGreaterThan(0);
    for (const s of secrets) expect(text.includes(s), 'a profile secret reached the HAR').toBe(false);
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\./);
    expect(text).not.toMatch(/Bearer (?!\*\*\*)/);
  });

  it('carries the fail verdict and its rules on the entries of a check that fails (token response without token_type)', async () => {
    const ref = await startReference({ faults: new Set(['token.missing-token-type']) });
    try {
      const { har, outcome } = await harOf('fail.har', { profile: ref.profile, env: {}, checks: ['auth.s2s.token-response'] });
      expect(outcome.results[0].verdict).toBe('fail');
      expect(validate(har), describeErrors(validate.errors)).toBe(true);
      expect(har.log.entries.length).toBeGreaterThan(0);
      for (const e of har.log.entries) {
        expect(e._check).toBe('auth.s2s.token-response');
        expect(e._verdict).toBe('fail');
        expect(e._rules).toContain('AUTH-S2S-TOKEN-RESPONSE');
      }
    } finally {
      await ref.close();
    }
  });

  it('the schema refuses what HAR 1.2 does not allow (it can fail)', () => {
    const entry = {
      startedDateTime: new Date(0).toISOString(),
      time: 1,
      request: { method: 'GET', url: 'http://127.0.0.1/x', httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
      response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: 0 },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
      _check: 'x',
    };
    const har = (e: object) => ({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [e] } });
    expect(validate(har(entry))).toBe(true);
    const { timings: _t, ...noTimings } = entry;
    expect(validate(har(noTimings))).toBe(false);
    expect(validate(har({ ...entry, check: 'a custom field without the underscore' }))).toBe(false);
    expect(validate(har({ ...entry, request: { ...entry.request, headers: { accept: 'x' } } }))).toBe(false);
    expect(validate(har({ ...entry, startedDateTime: 'yesterday' }))).toBe(false);
    expect(validate(har({ ...entry, request: { ...entry.request, postData: { mimeType: 'a', text: '', params: [] } } }))).toBe(false);
  });
});

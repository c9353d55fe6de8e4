// errors.body.shape on a malformed JSON token request, against the reference over loopback. Section 7
// does not show the answer to malformed JSON (other rule 5), so a 500 with the section 7 body must
// pass; an answer without that body, or one accepting the request, must fail under ERR-BODY-SHAPE.

import { afterEach, describe, expect, it } from 'vitest';
import { loadChecks } from '../index.ts';
import { loadModel } from '../../src/model/index.ts';
import { startReference } from '../../src/reference/index.ts';
import { runChecks } from '../../src/runner/index.ts';
import { resolveProfile } from '../../src/profile/index.ts';
import type { CheckResult } from '../../src/events/index.ts';
import type { ResponseTransform } from '../../src/reference/types.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function bodyShape(opts: { faults?: string[]; transform?: ResponseTransform }): Promise<CheckResult> {
  const ref = await startReference({ ...(opts.faults ? { faults: new Set(opts.faults) } : {}), ...(opts.transform ? { transform: opts.transform } : {}) });
  close = () => ref.close();
  const checks = (await loadChecks()).filter((c) => c.id === 'errors.body.shape');
  expect(checks).toHaveLength(1);
  const outcome = await runChecks({ profile: resolveProfile(ref.profile, { env: {} }), model: await loadModel(), seed: 7, numRuns: 10, concurrency: 1 }, checks, []);
  return outcome.results[0];
}

/** The token endpoint's answer to a body that does not parse, replaced; every other answer as is. */
const onMalformedToken = (answer: { status: number; headers: Record<string, string>; body: string }): ResponseTransform => (req, res) =>
  req.operationId === 'createToken' && res.status === 400 && /"body"/.test(res.body) ? answer : undefined;

describe('errors.body.shape on malformed JSON', () => {
  it('passes a 500 CategoryInternalFailure with the section 7 body (a reading section 7 leaves open)', async () => {
    const r = await bodyShape({ faults: ['input.malformed-json-500'] });
    expect(r.verdict, r.failure?.message).toBe('pass');
  }, 60_000);

  it('fails a bare 500 with no error body, naming ERR-BODY-SHAPE', async () => {
    const r = await bodyShape({ faults: ['input.malformed-json-bare-500'] });
    expect(r.verdict).toBe('fail');
    expect(r.failure?.rules).toEqual(['ERR-BODY-SHAPE']);
    expect(r.failure?.rulesNamed).toBe(true);
    expect(r.failure?.message).toMatch(/HTTP 500/);
  }, 60_000);

  it('fails a 200 accepting the malformed body, naming ERR-BODY-SHAPE', async () => {
    const r = await bodyShape({ transform: onMalformedToken({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"access_token":"x","token_type":"Bearer","expires_at":1}' }) });
    expect(r.verdict).toBe('fail');
    expect(r.failure?.rules).toEqual(['ERR-BODY-SHAPE']);
    expect(r.failure?.message).toMatch(/HTTP 200 to a malformed JSON body/);
  }, 60_000);
});

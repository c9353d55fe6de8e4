// load --har: the answers a load run kept as evidence of a broken rule, as HAR 1.2.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeErrors, validatorFor } from '../baseline/schemas.ts';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import type { Har } from '../report/har.ts';
import { stallTarget, type StallTarget } from './testing.ts';

const ENV = { BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a' };

describe('load --har', () => {
  let faulty: StallTarget;
  beforeAll(async () => {
    // Load requests only (setup is the first few): 1 in 50 answered 200 with no body.
    faulty = await stallTarget({ delayFor: () => 0, fault: (n) => (n > 5 && n % 50 === 0 ? { status: 200, body: '' } : undefined) });
  });
  afterAll(async () => faulty.close());

  it('writes the kept offending answers as valid HAR 1.2 naming the rule they broke, no secret', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'bc-load-har-'));
    const c = captureIo({ env: ENV, cwd });
    const code = await main(['load', 'user-read', '--target', faulty.base_url, '--arrival-rate', '200', '--duration', '1', '--no-progress', '--har', 'load.har'], c.io);
    expect(code, c.err()).toBe(1);
    const text = await readFile(join(cwd, 'load.har'), 'utf8');
    const har = JSON.parse(text) as Har;
    const validate = validatorFor('har.schema.json');
    expect(validate(har), describeErrors(validate.errors)).toBe(true);
    expect(har.log.entries.length).toBeGreaterThan(0);
    for (const e of har.log.entries) {
      expect(e._check).toBe('load.user-read');
      expect(e._rules).toEqual(['ENDPOINT-RESPONSE-SCHEMA']);
      expect(e._verdict).toBe('fail');
      expect(e.request.url.startsWith(faulty.base_url)).toBe(true);
      expect(e.response.status).toBe(200);
    }
    expect(text).not.toContain('secret-a');
  });
});

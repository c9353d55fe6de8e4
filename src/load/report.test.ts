// The HTML load report and the JSON result schema, on real runs: a stalling target (closed and open),
// a hostile token endpoint whose 429 body and Retry-After carry markup, and a merge.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import Handlebars from 'handlebars';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { packagePath } from '../package/index.ts';
import { pageTemplate } from '../report/html-template.ts';
import { resolveProfile } from '../profile/index.ts';
import { buildLoadHtml } from './html.ts';
import { mergeResults, runLoad, type LoadResult } from './index.ts';
import { everyNth, stallTarget, type StallTarget } from './testing.ts';

const addFormats = (addFormatsModule as any).default ?? addFormatsModule;
const HOSTILE = '<script>alert(1)</script>';
const HOSTILE_RA = '"><img src=x onerror=alert(2)>';

async function validator() {
  const schema = JSON.parse(await readFile(packagePath('spec', 'schemas', 'load-result.schema.json'), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

function expectInert(html: string) {
  // The run report's policy: no inline style but the one stylesheet, allowed by its hash.
  expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${Handlebars.escapeExpression(pageTemplate('load', ['load']).csp)}">`);
  expect(html).not.toMatch(/unsafe-inline/);
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<img/i);
  expect(html).not.toMatch(/\b(src|href)=/i);
  expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
}

describe('load report: HTML and JSON schema on real runs', () => {
  let t: StallTarget;
  const results: LoadResult[] = [];
  beforeAll(async () => {
    t = await stallTarget({ delayFor: everyNth(40, 1500) });
  });
  afterAll(() => t.close());

  it('--report-dir writes load.json (valid against spec/schemas/load-result.schema.json) and load.html showing the stall and the mode', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'bc-lrep-'));
    const c = captureIo({ env: { BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a' }, cwd });
    const code = await main(['load', 'user-read', '--target', t.base_url, '--duration', '1.5', '--connections', '3', '--timeout-budget', '1000', '--report-dir', 'out'], c.io);
    expect(code).toBe(1);
    const json = JSON.parse(await readFile(join(cwd, 'out', 'load.json'), 'utf8')) as LoadResult;
    results.push(json);
    const validate = await validator();
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.latency_ms.max).toBeGreaterThanOrEqual(1000);
    const html = await readFile(join(cwd, 'out', 'load.html'), 'utf8');
    expectInert(html);
    expect(html).toMatch(/closed model/);
    expect(html).toMatch(/FAIL/);
    expect(html).toMatch(/exceeded the 1000 ms timeout budget/);
    expect(html).toMatch(/<svg[^>]*aria-label="Latency histogram/);
    expect(html).toMatch(/<polyline class="curve" points="[0-9., ]+">/);
    expect(html).toMatch(/Share of 429 responses per second/);
    expect(html).toContain('<code>getUserV1</code>');
    expect(html).not.toContain('secret-a');
  });

  it('an inconclusive run (a threshold with no sample): exit 4, load.json validates with the verdict\'s outcome and reasons, load.html says INCONCLUSIVE, not PASS', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'bc-lrep-'));
    const c = captureIo({ env: { BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a' }, cwd });
    const code = await main(['load', 'user-read', '--target', t.base_url, '--duration', '1', '--connections', '2', '--threshold', 'createVirtualCard: p99 < 5000', '--report-dir', 'out'], c.io);
    expect(code).toBe(4);
    const json = JSON.parse(await readFile(join(cwd, 'out', 'load.json'), 'utf8')) as LoadResult;
    const validate = await validator();
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.verdict).toMatchObject({ pass: false, outcome: 'inconclusive', reasons: [], inconclusive: [expect.stringMatching(/^INCONCLUSIVE: threshold createVirtualCard: p99 < 5000 judged nothing because/)] });
    const html = await readFile(join(cwd, 'out', 'load.html'), 'utf8');
    expectInert(html);
    expect(html).toMatch(/data-value="verdict">INCONCLUSIVE</);
    expect(html).toMatch(/<li class="fail" data-inconclusive>INCONCLUSIVE: threshold createVirtualCard/);
    expect(html).not.toMatch(/>PASS</);
  });

  it('open model result validates and its HTML names the model and late sends', async () => {
    const r = await runLoad({ scenario: 'user-read', profile: t.profile, durationSec: 1, arrivalRate: 100, timeoutMs: 1000, thresholds: { rules: [{ expr: 'p99 < 1', metric: 'p99', op: '<', value: 1 }] } });
    results.push(r);
    const validate = await validator();
    expect(validate(JSON.parse(JSON.stringify(r))), JSON.stringify(validate.errors)).toBe(true);
    const html = buildLoadHtml(r);
    expectInert(html);
    expect(html).toMatch(/open model/);
    expect(html).toMatch(/late sends/);
    expect(html).toMatch(/<code>p99 &lt; 1<\/code><\/td><td class="n">[0-9.,]+<\/td><td class="fail">FAIL/);
  });

  it('a merged result validates too', async () => {
    const [a, b] = results;
    const m = mergeResults([a, { ...b, mode: a.mode, scenario: a.scenario }]);
    const validate = await validator();
    expect(validate(JSON.parse(JSON.stringify(m))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('strings from a hostile token endpoint (429 body, Retry-After) stay inert; the backoff timeline is drawn', async () => {
    let posts = 0;
    // Limited from the burst on until the probe's first attempt has had its 429, counted, not timed (a
    // 1.2 s window could end before the probe on a loaded machine): the probe sends through the setup
    // client, which puts an X-Request-Id on every attempt; the burst's engine does not.
    let probeLimited = false;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        posts++;
        if (posts === 1) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'tok-1', token_type: 'Bearer', expires_at: 2e9 }));
        if (!probeLimited) {
          if (req.headers['x-request-id'] !== undefined) probeLimited = true;
          return res.writeHead(429, { 'retry-after': HOSTILE_RA, 'content-type': 'text/html' }).end(HOSTILE);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'tok-2', token_type: 'Bearer', expires_at: 2e9 }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base_url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const profile = resolveProfile({ base_url, clients: [{ client_id: 'a', client_secret: 'secret-a' }] }, { env: {} });
      const r = await runLoad({ scenario: 'token-burst', profile, durationSec: 0.5, connections: 2, recovery: { maxAttempts: 10, maxMs: 8000 } });
      expect(r.contracts!['429-shape'].violations).toBeGreaterThan(0);
      expect(r.contracts!['429-shape'].samples[0]).toContain(HOSTILE);
      expect(r.recovery![0].attempts.some((a) => a.retry_after === HOSTILE_RA)).toBe(true);
      const validate = await validator();
      expect(validate(JSON.parse(JSON.stringify(r))), JSON.stringify(validate.errors)).toBe(true);
      const html = buildLoadHtml(r);
      expectInert(html);
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).toContain('&quot;&gt;&lt;img src&#x3D;x onerror&#x3D;alert(2)&gt;');
      expect(html).toMatch(/Backoff probe/);
      expect(html).toMatch(/<circle class="limited"/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

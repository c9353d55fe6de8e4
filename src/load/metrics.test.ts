// --metrics-port: Prometheus exposition during a load run, scraped mid-run and at the end; the numbers
// agree with the final result (requests by operation and status, latency count, findings by rule,
// late sends, nothing in flight at the end).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { loadMetrics, runLoad, serveMetrics } from './index.ts';
import { stallTarget, type StallTarget } from './testing.ts';

/** The value of one sample line `name{labels} value` (labels in prom-client's order), or 0 when absent. */
function sample(text: string, name: string, labels = ''): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

const scrape = async (url: string) => {
  const res = await fetch(url);
  expect(res.headers.get('content-type')).toMatch(/text\/plain/);
  return res.text();
};

describe('load --metrics-port', () => {
  let t: StallTarget;
  beforeAll(async () => {
    // 1 in 100 answers is a 200 with an empty body: a conformance finding the metrics must count.
    t = await stallTarget({ delayFor: (n) => (n % 10 === 0 ? 20 : 0), fault: (n) => (n > 5 && n % 100 === 0 ? { status: 200, body: '' } : undefined) });
  });
  afterAll(() => t.close());

  it('scraped mid-run and after: counts by operation and status, latency, findings, late sends agree with the result', async () => {
    const metrics = loadMetrics();
    const server = await serveMetrics(metrics, 0);
    try {
      const profile = resolveProfile({ base_url: t.base_url, clients: [{ client_id: 'a', client_secret: 'secret-a' }] }, { env: {} });
      // Mid-run: at the first progress report (1 s into the load phase).
      let midScrape: Promise<string> | undefined;
      const r = await runLoad({ scenario: 'user-read', profile, arrivalRate: 150, durationSec: 2, metrics, thresholds: { conformanceErrorsMax: 1000 }, onProgress: () => void (midScrape ??= scrape(server.url)) });
      const mid = await midScrape!;
      const end = await scrape(server.url);
      const ok = r.operations.getUserV1.counts.status['200'];
      const midOk = sample(mid, 'baas_load_requests_total', 'operation="getUserV1",status="200"');
      expect(midOk).toBeGreaterThan(0);
      expect(midOk).toBeLessThan(ok);
      expect(sample(end, 'baas_load_requests_total', 'operation="getUserV1",status="200"')).toBe(ok);
      expect(sample(end, 'baas_load_request_duration_seconds_count', 'operation="getUserV1"')).toBe(r.latency_ms.count);
      expect(sample(end, 'baas_load_conformance_findings_total', 'rule="ENDPOINT-RESPONSE-SCHEMA",operation="getUserV1"')).toBe(r.conformance!.by_rule['ENDPOINT-RESPONSE-SCHEMA']);
      expect(r.conformance!.findings).toBeGreaterThan(0);
      expect(sample(end, 'baas_load_late_sends_total')).toBe(r.late_sends.count);
      expect(sample(end, 'baas_load_in_flight')).toBe(0);
      expect(end).toMatch(/# TYPE baas_load_request_duration_seconds histogram/);
    } finally {
      await server.close();
    }
  });

  it('the CLI flag serves /metrics while the run lasts and names the address on stderr; a taken port exits 2', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'bc-metrics-'));
    const c = captureIo({ env: { BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a' }, cwd });
    const done = main(['load', 'user-read', '--target', t.base_url, '--arrival-rate', '100', '--duration', '2', '--no-progress', '--metrics-port', '0', '--conformance-errors-max', '1000'], c.io);
    let url: string | undefined;
    for (let i = 0; i < 300 && !url; i++) {
      await new Promise((r) => setTimeout(r, 50));
      url = /metrics: (http:\/\/\S+)/.exec(c.err())?.[1];
    }
    expect(url).toBeDefined();
    let seen = 0;
    for (let i = 0; i < 100 && !seen; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = sample(await scrape(url!), 'baas_load_requests_total', 'operation="getUserV1",status="200"');
    }
    expect(seen).toBeGreaterThan(0);
    expect(await done).toBe(0);
    const port = new URL(url!).port;
    const holder = await serveMetrics(loadMetrics(), 0);
    try {
      const taken = new URL(holder.url).port;
      const c2 = captureIo({ env: { BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'secret-a' }, cwd });
      expect(await main(['load', 'user-read', '--target', t.base_url, '--duration', '1', '--metrics-port', taken], c2.io)).toBe(2);
      expect(c2.err()).toMatch(/--metrics-port/);
    } finally {
      await holder.close();
    }
    expect(port).not.toBe('');
  });
});

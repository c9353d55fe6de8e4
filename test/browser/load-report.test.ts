// The load report (reports/load.html.hbs, helper "load") in a real browser: a short user-read load
// against the embedded reference, and a token burst against a hostile loopback server whose 429
// answers carry <script>/onerror markup in the body and in Retry-After (it lets requests through
// 1.5 s after the burst starts, so the backoff probe ends quickly). The numbers shown must equal
// load.json, and nothing may run, load, log an error or violate the CSP.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../../src/cli/capture.ts';
import { main } from '../../src/cli/index.ts';
import { browserAvailability, cspViolations, launchBrowser, openReport, watchedContext, type PageWatch } from './harness.ts';

const HOSTILE = `<script>window.__pwned=1;alert(1)</script><img src=x onerror="window.__pwned=2;alert(2)">`;

/** Token endpoint: one token (the load needs it first), then 429 with hostile text for 1.5 s, then tokens again. */
async function hostileTokenServer(): Promise<{ url: string; close(): Promise<void> }> {
  let n = 0;
  let limitedSince = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (n > 0 && !limitedSince) limitedSince = Date.now();
      if (n++ === 0 || (limitedSince && Date.now() - limitedSince > 1500)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'a.b.c', token_type: 'Bearer', expires_at: Math.floor(Date.now() / 1000) + 172800 }));
        return;
      }
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': HOSTILE });
      res.end(JSON.stringify({ error_reason: HOSTILE, error_description: HOSTILE, error_category: { category: HOSTILE, http_status_code: 429 }, error_details: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function load(dir: string, args: string[], env: Record<string, string> = {}): Promise<{ html: string; json: any }> {
  const { io, err } = captureIo({ cwd: dir, env });
  const code = await main(['load', ...args, '--duration', '1', '--no-progress', '--report-dir', dir], io);
  expect([0, 1], err()).toContain(code);
  return { html: join(dir, 'load.html'), json: JSON.parse(await readFile(join(dir, 'load.json'), 'utf8')) };
}

const { skip } = browserAvailability();

describe.skipIf(skip)('load report in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let on: { context: BrowserContext; watch: PageWatch };
  let off: { context: BrowserContext; watch: PageWatch };
  let reads: { html: string; json: any };
  let burst: { html: string; json: any };
  const pages: Record<string, Page> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bc-browser-load-'));
    browser = await launchBrowser();
    reads = await load(join(dir, 'reads'), ['user-read', '--connections', '2']);
    const server = await hostileTokenServer();
    try {
      burst = await load(join(dir, 'burst'), ['token-burst', '--target', server.url, '--amount', '200'], { BAAS_CLIENT_ID: 'client-1', BAAS_CLIENT_SECRET: 'secret-of-the-client' });
    } finally {
      await server.close();
    }
    on = await watchedContext(browser, true);
    off = await watchedContext(browser, false);
    pages.readsOn = await openReport(on.context, reads.html);
    pages.burstOn = await openReport(on.context, burst.html);
    pages.burstOff = await openReport(off.context, burst.html);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const opRow = (page: Page, op: string): Locator => page.locator('tr', { has: page.locator('td:first-child code', { hasText: new RegExp(`^${op}$`) }) });

  it('shows the counts of load.json: verdict, errors, timeouts, per-operation requests and statuses', async () => {
    for (const [page, r] of [[pages.readsOn, reads.json], [pages.burstOn, burst.json], [pages.burstOff, burst.json]] as const) {
      expect((await page.locator('p.verdict').textContent())?.trim()).toBe(r.verdict.pass ? 'PASS' : r.verdict.outcome === 'inconclusive' ? 'INCONCLUSIVE' : 'FAIL');
      const cards = (await page.locator('.cards').textContent()) ?? '';
      expect(cards).toContain(`errors (${r.counts.errors} of ${r.counts.attempts})`);
      expect(Number(await page.locator('.card', { hasText: 'timeouts' }).locator('b').textContent())).toBe(r.counts.timeouts);
      expect(Number(await page.locator('.card', { hasText: 'incomplete' }).locator('b').textContent())).toBe(r.counts.incomplete);
      for (const [op, o] of Object.entries<any>(r.operations)) {
        const cells = await opRow(page, op).locator('td').allTextContents();
        expect(Number(cells[1]), `${op} requests`).toBe(o.counts.attempts);
        for (const [code, n] of Object.entries(o.counts.status)) expect(cells[2], `${op} ${code}`).toContain(`${code}: ${n}`);
        expect(Number(cells[3]), `${op} timeouts`).toBe(o.counts.timeouts);
      }
      expect(await page.locator('tr', { has: page.locator('td:first-child code') }).count()).toBeGreaterThanOrEqual(Object.keys(r.operations).length);
    }
    expect(Object.keys(reads.json.operations).length).toBeGreaterThan(0);
    // The burst: every answer was a 429 breaking the contract, and the probe got through.
    const b = burst.json;
    const shape = b.contracts['429-shape'];
    expect(shape.violations).toBeGreaterThan(0);
    expect(await pages.burstOn.locator('p', { hasText: 'checked,' }).textContent()).toContain(`${shape.checked} checked, ${shape.violations} violations`);
    expect(await pages.burstOn.locator('h2:text("Backoff probe") ~ table').first().locator('tr').count()).toBe(1 + b.recovery[0].attempts.length);
  });

  it('hostile markup in 429 bodies and Retry-After stays text; nothing runs, loads, logs an error or violates the CSP', async () => {
    const page = pages.burstOn;
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(on.watch.dialogs).toEqual([]);
    expect(off.watch.dialogs).toEqual([]);
    expect(await page.locator('code', { hasText: HOSTILE }).count()).toBeGreaterThan(0); // Retry-After column
    expect(await page.locator('body img, body script').count()).toBe(0);
    for (const p of [pages.readsOn, pages.burstOn]) expect(await cspViolations(p)).toEqual([]);
    expect(on.watch.problems).toEqual([]);
    expect(off.watch.problems).toEqual([]);
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toMatch(/^default-src 'none'/);
    expect(csp).not.toMatch(/script-src/);
  });
});

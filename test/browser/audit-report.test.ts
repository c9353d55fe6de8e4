// The client audit report (src/audit/report.ts) in a real browser: a hostile client sends <script>
// and onerror markup in its path, headers and body (and a card number to base_url, so a verdict cites
// that very exchange). Nothing may run, load, log an error or violate the CSP; each verdict shows the
// exchanges audit.json lists for it.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAudit, writeAuditReports } from '../../src/audit/index.ts';
import { browserAvailability, cspViolations, launchBrowser, openReport, watchedContext } from './harness.ts';

const HOSTILE = `<script>window.__pwned=1;alert(1)</script><img src=x onerror="window.__pwned=2;alert(2)">`;
const { skip } = browserAvailability();

describe.skipIf(skip)('client audit report in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let json: any;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'audit-report-'));
    const audit = await startAudit({ plan: { token_bursts: [], retry_after: [], other_burst: null, stall: null } });
    try {
      const r = await request(`${audit.profile.base_url}/${encodeURIComponent(HOSTILE)}`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-note': HOSTILE.replace(/[^\x20-\x7e]/g, '') }, body: JSON.stringify({ note: HOSTILE, card: '4111111111111111' }),
      });
      await r.body.dump();
      const v = await audit.verdict();
      await writeAuditReports(v, audit.plan, { json: join(dir, 'audit.json'), junit: join(dir, 'junit.xml'), html: join(dir, 'audit.html') });
    } finally {
      await audit.close();
    }
    json = JSON.parse(await readFile(join(dir, 'audit.json'), 'utf8'));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs nothing a client sent, and shows each verdict with its exchanges', async () => {
    const { context, watch } = await watchedContext(browser, true);
    const page = await openReport(context, join(dir, 'audit.html'));
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await cspViolations(page)).toEqual([]);
    expect(watch.problems).toEqual([]);
    expect(watch.dialogs).toEqual([]);
    const pan = json.rules.find((r: any) => r.id === 'CLIENT-PAN-PCI-ONLY');
    expect(pan.outcome).toBe('fail');
    expect(await page.locator('#CLIENT-PAN-PCI-ONLY tbody tr').count()).toBe(pan.exchanges.length);
    expect(await page.locator('#CLIENT-PAN-PCI-ONLY').textContent()).toContain(HOSTILE.slice(0, 20));
    await context.close();
  });
});

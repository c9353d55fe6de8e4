// The history page (reports/history.html.hbs) in a real browser, from ten real nights: `run` against a
// reference whose S2S token response loses token_type in nights 2, 7 and 9, under a target name with
// hostile markup. The page must show the flapping rule at a glance (its row marked, three failing
// cells), a bar per night in the trend chart with the failures drawn, the JSON's numbers, and the
// hostile name as text, with scripts on and off, with nothing loaded and no CSP violation.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import { buildHistory, loadRuns, writeHistory, type HistoryDoc } from '../../src/history/index.ts';
import { startReference } from '../../src/reference/index.ts';
import { JsonReporter } from '../../src/report/index.ts';
import { browserAvailability, cspViolations, launchBrowser, openReport, shownNumber, watchedContext, type PageWatch } from './harness.ts';

const HOSTILE = `nightly <img src=x onerror="window.__pwned=1;alert(1)">`;
const RULE = 'AUTH-S2S-TOKEN-RESPONSE';
const FAULT_NIGHTS = new Set([2, 7, 9]);
const NIGHTS = 10;
const { skip } = browserAvailability();

describe.skipIf(skip)('history page in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let history: HistoryDoc;
  let on: { context: BrowserContext; watch: PageWatch };
  let off: { context: BrowserContext; watch: PageWatch };
  let pages: Page[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bc-browser-history-'));
    const files: string[] = [];
    for (let n = 1; n <= NIGHTS; n++) {
      const ref = await startReference({ name: HOSTILE, ...(FAULT_NIGHTS.has(n) ? { faults: new Set(['token.missing-token-type']) } : {}) });
      try {
        const file = join(dir, `night-${n}.json`);
        await runConformance({ profile: ref.profile, env: {}, seed: n, checks: ['auth.s2s.token-response', 'errors.token.client-id-missing'], reporters: [new JsonReporter(file)] });
        files.push(file);
      } finally {
        await ref.close();
      }
    }
    history = buildHistory(await loadRuns(files, dir));
    const written = await writeHistory(history, dir);
    browser = await launchBrowser();
    on = await watchedContext(browser, true);
    off = await watchedContext(browser, false);
    pages = [await openReport(on.context, written.html), await openReport(off.context, written.html)];
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the history is what the nights made', () => {
    expect(history.runs).toHaveLength(NIGHTS);
    expect(history.rules.find((t) => t.id === RULE)).toMatchObject({ flapping: true, vsPrevious: 'fixed' });
    expect(history.exit.code).toBe(0);
  });

  it('shows the flapping rule at a glance and the JSON numbers', async () => {
    for (const page of pages) {
      expect(await shownNumber(page, 'flapping')).toBe(history.counts.rules.flapping);
      expect(await shownNumber(page, 'fixed')).toBe(1);
      expect(await shownNumber(page, 'regressed')).toBe(0);
      const row = page.locator(`table[data-grid="rules"] tr[data-id="${RULE}"]`);
      expect(await row.getAttribute('class')).toBe('flap');
      // First row of the grid: flapping rules are listed first.
      expect(await page.locator('table[data-grid="rules"] tbody tr').first().getAttribute('data-id')).toBe(RULE);
      expect(await row.locator('td.g.fail').count()).toBe(FAULT_NIGHTS.size);
      expect(await row.locator('td.g').count()).toBe(NIGHTS);
      const fail = await row.locator('td.g.fail').first().evaluate((td) => getComputedStyle(td).backgroundColor);
      const pass = await row.locator('td.g.pass').first().evaluate((td) => getComputedStyle(td).backgroundColor);
      expect(fail).not.toBe(pass);
    }
  });

  it('draws one bar per night in the trend chart, the failures in their colour', async () => {
    for (const page of pages) {
      expect(await page.locator('svg.trend g[data-run]').count()).toBe(NIGHTS);
      const failed = page.locator('svg.trend rect.s-failed');
      expect(await failed.count()).toBe(FAULT_NIGHTS.size);
      const box = await failed.first().boundingBox();
      expect(box && box.height > 0 && box.width > 0).toBe(true);
      const fill = await failed.first().evaluate((r) => getComputedStyle(r).fill);
      const passFill = await page.locator('svg.trend rect.s-passed').first().evaluate((r) => getComputedStyle(r).fill);
      expect(fill).not.toBe(passFill);
    }
  });

  it('a hostile target name stays text; nothing runs, loads or violates the CSP', async () => {
    const [pageOn] = pages;
    expect((await pageOn.locator('[data-value="target"]').textContent()) ?? '').toBe(HOSTILE);
    expect(await pageOn.locator('header img, script').count()).toBe(0);
    expect(await pageOn.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await cspViolations(pageOn)).toEqual([]);
    expect([...on.watch.dialogs, ...off.watch.dialogs]).toEqual([]);
    expect([...on.watch.problems, ...off.watch.problems]).toEqual([]);
  });
});

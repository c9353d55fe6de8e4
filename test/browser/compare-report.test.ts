// The compare page (reports/compare.html.hbs) in a real browser, from a small real comparison: the
// reference as A, and as B a second reference behind a loopback proxy whose v2 user read carries an
// extra field named with hostile markup (a field the spec does not list) and whose create-card
// answer drops card_data (a field it lists). The numbers shown must equal the JSON, each difference
// must sit in its group, and the hostile name must stay text with scripts on and off.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCompareHtml, compareTargets, type CompareResult } from '../../src/compare/index.ts';
import { isObject } from '../../src/mutants/json.ts';
import { startInterceptProxy, PROXY_CONTROL_PREFIX, type InterceptProxy } from '../../src/mutants/proxy.ts';
import { startReference, type ReferenceServer } from '../../src/reference/index.ts';
import { writeReport } from '../../src/report/files.ts';
import { browserAvailability, cspViolations, launchBrowser, openReport, shownNumber, watchedContext, type PageWatch } from './harness.ts';

const HOSTILE = `<img src=x onerror="window.__pwned=1;alert(1)">`;
const { skip } = browserAvailability();

describe.skipIf(skip)('compare report in Chromium', () => {
  let dir: string;
  let refs: ReferenceServer[] = [];
  let proxy: InterceptProxy;
  let browser: Browser;
  let result: CompareResult;
  let on: { context: BrowserContext; watch: PageWatch };
  let off: { context: BrowserContext; watch: PageWatch };
  let pages: Page[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bc-browser-compare-'));
    refs = await Promise.all([startReference(), startReference()]);
    proxy = await startInterceptProxy(refs[1].profile, {
      response(req, res) {
        if (res.status >= 300 || !isObject(res.json)) return;
        if (req.operationId === 'getUserV2') res.json = { ...res.json, [HOSTILE]: 1 };
        else if (req.operationId === 'createVirtualCard') delete res.json.card_data;
        else return;
        res.body = JSON.stringify(res.json);
      },
    });
    const b = { ...refs[1].profile, base_url: proxy.baseUrl, control_url: `${proxy.baseUrl}${PROXY_CONTROL_PREFIX}` };
    result = await compareTargets({ profiles: [refs[0].profile, b], seed: 3, checks: ['schema.get-user-v2', 'schema.create-virtual-card'], env: {} });
    const file = join(dir, 'compare.html');
    await writeReport(file, buildCompareHtml(result, 'npx baas-conform compare --profile a.json --profile b.json --seed 3'));
    browser = await launchBrowser();
    on = await watchedContext(browser, true);
    off = await watchedContext(browser, false);
    pages = [await openReport(on.context, file), await openReport(off.context, file)];
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await Promise.all(refs.map((r) => r.close()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the comparison is what the test set up', () => {
    expect(result.specified.map((d) => d.field)).toEqual(['$.card_data']);
    expect(result.silent.map((d) => d.field)).toEqual([`$.${HOSTILE}`]);
    expect(result.exitCode).toBe(0);
  });

  it('shows the numbers of the JSON, and each difference in its group', async () => {
    for (const page of pages) {
      expect(await shownNumber(page, 'rules-differing')).toBe(0);
      expect(await shownNumber(page, 'specified')).toBe(1);
      expect(await shownNumber(page, 'silent')).toBe(1);
      expect(await shownNumber(page, 'paired')).toBe(result.counts.pairedSteps);
      expect(await page.locator('[data-group="specified"] tr[data-field="$.card_data"]').count()).toBe(1);
      expect(await page.locator('[data-group="silent"] tr[data-kind="only-b"]').count()).toBe(1);
      expect(await page.locator('[data-group="specified"] tr[data-kind="only-b"]').count()).toBe(0);
    }
  });

  it('a hostile field name stays text; nothing runs, loads or violates the CSP', async () => {
    const [pageOn] = pages;
    expect((await pageOn.locator('[data-group="silent"] table').textContent()) ?? '').toContain(HOSTILE);
    expect(await pageOn.locator('[data-group="silent"] img, script').count()).toBe(0);
    expect(await pageOn.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await cspViolations(pageOn)).toEqual([]);
    expect([...on.watch.dialogs, ...off.watch.dialogs]).toEqual([]);
    expect([...on.watch.problems, ...off.watch.problems]).toEqual([]);
  });
});

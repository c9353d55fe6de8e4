// The selftest kill-matrix page in a real browser, from a small real selftest: the token-endpoint
// checks against the baseline, a faulty variant they catch, a faulty variant they cannot catch
// (its rule is outside the subset), and a variant labelled benign that actually answers hostile
// markup (a false positive). The numbers shown must equal selftest.json, the problems filter must
// work with scripts on and off, and the hostile markup must stay text.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSelftest, variantsById, type MutantVariant } from '../../src/mutants/index.ts';
import { writeSelftestReport } from '../../src/report/index.ts';
import { loadModel } from '../../src/model/index.ts';
import { loadChecks } from '../../suites/index.ts';
import { browserAvailability, cspViolations, launchBrowser, openReport, shownNumber, visibleCount, watchedContext, type PageWatch } from './harness.ts';

const HOSTILE = `<script>window.__pwned=1;alert(1)</script><img src=x onerror="window.__pwned=2;alert(2)">`;

/** Labelled benign, but every token error carries hostile markup: the checks must flag it (a false positive here). */
const mislabelled: MutantVariant = {
  id: 'test.mislabelled-hostile',
  kind: 'benign',
  area: 'benign',
  topic: 'benign',
  set: 'default',
  description: `labelled benign, answers token errors with ${HOSTILE}`,
  options: {
    transform: (req, res) => {
      if (req.operationId !== 'createToken' || res.status < 400) return;
      const body = JSON.parse(res.body);
      body.error_description = HOSTILE;
      res.body = JSON.stringify(body);
    },
  },
};

const { skip } = browserAvailability();

describe.skipIf(skip)('selftest report in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let on: { context: BrowserContext; watch: PageWatch };
  let off: { context: BrowserContext; watch: PageWatch };
  let result: any;
  let pageOn: Page;
  let pageOff: Page;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bc-browser-selftest-'));
    browser = await launchBrowser();
    const checks = (await loadChecks()).filter((c) => c.id.startsWith('errors.token.'));
    const variants = [...variantsById(['token.client-id-missing.wrong-message', 's2s.bearer-format.401']), mislabelled];
    const r = await runSelftest({ variants, checks, concurrency: 2, model: await loadModel() });
    const paths = await writeSelftestReport(dir, r, await loadModel());
    result = JSON.parse(await readFile(paths.json, 'utf8'));
    on = await watchedContext(browser, true);
    off = await watchedContext(browser, false);
    pageOn = await openReport(on.context, paths.html);
    pageOff = await openReport(off.context, paths.html);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the run is what the test set up: one caught, one not caught, one false positive', () => {
    expect(result.score).toMatchObject({ caught: 1, faulty: 2 });
    expect(result.uncaught).toEqual(['s2s.bearer-format.401']);
    expect(result.falsePositives.map((f: any) => f.variant)).toEqual(expect.arrayContaining(['test.mislabelled-hostile']));
    expect(result.exitCode).toBe(1);
  });

  it('shows the numbers of selftest.json', async () => {
    for (const page of [pageOn, pageOff]) {
      expect(await shownNumber(page, 'caught')).toBe(result.score.caught);
      expect(await shownNumber(page, 'faulty')).toBe(result.score.faulty);
      expect(await shownNumber(page, 'percent')).toBe(result.score.percent);
      expect(await shownNumber(page, 'false-positives')).toBe(result.falsePositives.length);
      expect(await shownNumber(page, 'variants')).toBe(result.variants.length);
      expect(await shownNumber(page, 'baseline-passed')).toBe(result.baseline.passed);
      expect(await shownNumber(page, 'baseline-failed')).toBe(result.baseline.failing.length);
      expect(await shownNumber(page, 'baseline-skipped')).toBe(result.baseline.skipped);
      // The kill matrix: one group per broken rule, the catching checks listed under the caught variant.
      const rules = [...new Set(result.variants.filter((v: any) => v.kind === 'faulty').flatMap((v: any) => v.breaks))];
      expect(await page.locator('table.kill-matrix tbody.group').count()).toBe(rules.length);
      const caught = result.variants.find((v: any) => v.id === 'token.client-id-missing.wrong-message');
      const cell = (await page.locator('table.kill-matrix tr[data-variant="token.client-id-missing.wrong-message"] td').nth(2).textContent()) ?? '';
      for (const id of caught.caughtBy) expect(cell).toContain(id);
    }
  });

  it('the problems filter shows only what is wrong, with scripts on and off', async () => {
    const problems = result.uncaught.length + [result.baseline, ...result.variants].filter((v: any) => v.kind !== 'faulty' && !v.ok).length;
    for (const page of [pageOn, pageOff]) {
      expect(await page.locator('#filter-failed').isChecked()).toBe(true); // exit code 1: problems first
      expect(await visibleCount(page, 'table.kill-matrix tr.item')).toBe(result.uncaught.length);
      expect(await visibleCount(page, 'table.benign tr.item')).toBe(problems - result.uncaught.length);
      await page.click('label[for="filter-all"]');
      expect(await visibleCount(page, 'table.kill-matrix tr.item')).toBe(result.variants.filter((v: any) => v.kind === 'faulty').length);
      expect(await visibleCount(page, 'table.benign tr.item')).toBe(1 + result.variants.filter((v: any) => v.kind === 'benign').length);
      await page.click('label[for="filter-failed"]');
    }
  });

  it('hostile markup in variant text and failure messages stays text; nothing runs, loads or violates the CSP', async () => {
    await pageOn.click('label[for="filter-all"]');
    expect(await pageOn.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(on.watch.dialogs).toEqual([]);
    expect(off.watch.dialogs).toEqual([]);
    expect((await pageOn.locator('table.benign').textContent()) ?? '').toContain(HOSTILE);
    expect(await pageOn.locator('table.benign img, table.benign script').count()).toBe(0);
    expect(await cspViolations(pageOn)).toEqual([]);
    expect(on.watch.problems).toEqual([]);
    expect(off.watch.problems).toEqual([]);
  });
});

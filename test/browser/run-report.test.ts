// The run report in a real browser: a passing run against the embedded reference and a failing run
// against a hostile variant of it (its error bodies, reasons and headers carry <script> and onerror
// markup). The numbers shown must equal results.json, the filter must work with scripts on and
// off, nothing may run, load or violate the CSP, and no secret may reach the page.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../../src/cli/capture.ts';
import { main } from '../../src/cli/index.ts';
import { loadModel } from '../../src/model/index.ts';
import { resolveProfile, secretsOf } from '../../src/profile/index.ts';
import { startReference } from '../../src/reference/index.ts';
import { createReporters } from '../../src/report/index.ts';
import { runChecks } from '../../src/runner/index.ts';
import { loadChecks } from '../../suites/index.ts';
import { browserAvailability, cspViolations, launchBrowser, openReport, shownNumber, visibleCount, watchedContext, type PageWatch } from './harness.ts';

const HOSTILE = `<script>window.__pwned=1;alert(1)</script><img src=x onerror="window.__pwned=2;alert(2)">`;
const major = (s: string) => s.split('.')[0];

interface Report {
  html: string;
  json: any;
  secrets: string[];
}

async function passingRun(dir: string): Promise<Report> {
  const { io, err } = captureIo({ cwd: dir });
  const code = await main(['run', '--report-dir', dir, '--seed', '7'], io);
  expect(code, err()).toBe(0);
  // The embedded reference's secrets are random per start: none can be known here, so the
  // secret check is on the failing run, whose reference the test holds.
  return { html: join(dir, 'report.html'), json: JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')), secrets: [] };
}

/** The reference with every error answer made hostile: markup in error_reason and error_description, and a hostile header. */
async function failingRun(dir: string): Promise<Report> {
  const ref = await startReference({
    host: '127.0.0.1',
    port: 0,
    pciPort: 0,
    control: true,
    transform: (req, res) => {
      if (res.status < 400 || req.operationId?.startsWith('control:')) return;
      res.headers['x-hostile'] = HOSTILE;
      try {
        const body = JSON.parse(res.body);
        body.error_description = `${HOSTILE} ${body.error_description}`;
        if (req.operationId === 'createToken') body.error_reason = `${HOSTILE}${body.error_reason}`;
        res.body = JSON.stringify(body);
      } catch {
        res.body = HOSTILE;
      }
    },
  });
  try {
    const profile = resolveProfile(ref.profile, { env: {} }, 'hostile reference');
    const paths = { json: join(dir, 'results.json'), html: join(dir, 'report.html') };
    const outcome = await runChecks({ profile, model: await loadModel(), seed: 11, checkIds: ['errors.*'] }, await loadChecks(), createReporters(paths));
    expect(outcome.summary.failed).toBeGreaterThan(3);
    return { html: paths.html, json: JSON.parse(await readFile(paths.json, 'utf8')), secrets: secretsOf(ref.profile) };
  } finally {
    await ref.close();
  }
}

const { skip } = browserAvailability();

describe.skipIf(skip)('run report in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let on: { context: BrowserContext; watch: PageWatch };
  let off: { context: BrowserContext; watch: PageWatch };
  let pass: Report;
  let fail: Report;
  const pages: Record<string, Page> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bc-browser-run-'));
    browser = await launchBrowser();
    pass = await passingRun(join(dir, 'pass'));
    fail = await failingRun(join(dir, 'fail'));
    on = await watchedContext(browser, true);
    off = await watchedContext(browser, false);
    pages.passOn = await openReport(on.context, pass.html);
    pages.failOn = await openReport(on.context, fail.html);
    pages.passOff = await openReport(off.context, pass.html);
    pages.failOff = await openReport(off.context, fail.html);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows the counts of results.json: totals, by spec section, by area', async () => {
    for (const [page, report] of [[pages.passOn, pass], [pages.failOn, fail]] as const) {
      const s = report.json.summary;
      for (const [name, want] of Object.entries({ passed: s.passed, failed: s.failed, skipped: s.skipped, total: s.total, requests: s.requests })) {
        expect(await shownNumber(page, name, '.cards'), name).toBe(want);
      }
      for (const k of ['passed', 'failed', 'skipped', 'uncovered', 'untestable', 'total']) expect(await shownNumber(page, `rules-${k}`, '.cards'), k).toBe(s.rules[k]);

      const checks: any[] = report.json.checks;
      const rules: any[] = report.json.rules;
      const sections = [...new Set([...checks.map((c) => major(c.section)), ...rules.map((r) => major(r.section))])];
      expect(await page.locator('table.by-section tbody tr').count()).toBe(sections.length);
      for (const sec of sections) {
        const row = `table.by-section tbody tr[data-section="${sec}"]`;
        const cs = checks.filter((c) => major(c.section) === sec);
        const rs = rules.filter((r) => major(r.section) === sec);
        for (const v of ['pass', 'fail', 'skip']) expect(await shownNumber(page, `checks-${v}`, row), `§${sec} checks ${v}`).toBe(cs.filter((c) => c.verdict === v).length);
        for (const v of ['pass', 'fail', 'skip', 'uncovered', 'untestable']) expect(await shownNumber(page, `rules-${v}`, row), `§${sec} rules ${v}`).toBe(rs.filter((r) => r.verdict === v).length);
        expect(await shownNumber(page, 'rules-total', row)).toBe(rs.length);
        const testable = rs.filter((r) => r.verdict !== 'untestable').length;
        const observed = rs.filter((r) => r.verdict === 'pass' || r.verdict === 'fail').length;
        expect((await page.locator(`${row} [data-count="coverage"]`).textContent())?.trim()).toBe(testable ? `${Math.round((observed / testable) * 100)}%` : '–');
      }
      for (const area of new Set(checks.map((c) => c.area))) {
        const row = `table.by-area tr[data-area="${area}"]`;
        for (const v of ['pass', 'fail', 'skip']) expect(await shownNumber(page, v, row), `${area} ${v}`).toBe(checks.filter((c) => c.area === area && c.verdict === v).length);
      }
    }
  });

  it('filters failed / skipped / all with scripts on and with scripts off', async () => {
    for (const [page, report] of [[pages.passOn, pass], [pages.passOff, pass], [pages.failOn, fail], [pages.failOff, fail]] as const) {
      const checks: any[] = report.json.checks;
      const rules: any[] = report.json.rules;
      const n = (list: any[], v?: string) => list.filter((x) => !v || x.verdict === v).length;
      // Default: failed when something failed, else all.
      const failedFirst = n(checks, 'fail') > 0;
      expect(await page.locator(failedFirst ? '#filter-failed' : '#filter-all').isChecked()).toBe(true);
      for (const [label, v] of [['failed', 'fail'], ['skipped', 'skip'], ['all', undefined]] as const) {
        await page.click(`label[for="filter-${label}"]`);
        expect(await page.locator(`#filter-${label}`).isChecked()).toBe(true);
        expect(await visibleCount(page, 'table.checks tr.item'), `checks under ${label}`).toBe(n(checks, v));
        expect(await visibleCount(page, 'table.rules tr.item'), `rules under ${label}`).toBe(n(rules, v));
        expect(await visibleCount(page, 'article.failure'), `failure cards under ${label}`).toBe(label === 'skipped' ? 0 : n(checks, 'fail'));
      }
      await page.click('label[for="filter-failed"]');
      if (!failedFirst) expect(await page.locator('.empty-failed').isVisible()).toBe(true);
    }
  });

  it('opens each failure on the exchange that broke the rule: expected beside actual, the rule row, seeds, a replayable curl', async () => {
    const page = pages.failOn;
    await page.click('label[for="filter-failed"]');
    const failed = fail.json.checks.filter((c: any) => c.verdict === 'fail');
    expect(await page.locator('article.failure').count()).toBe(failed.length);
    for (const c of failed) {
      const card = page.locator(`article.failure[id="check-${c.checkId}"]`);
      await expect(card.count()).resolves.toBe(1);
      const text = (await card.textContent()) ?? '';
      expect(text).toContain(c.failure.message);
      expect(text).toContain(String(c.seed));
      expect(text).toContain(`--seed ${fail.json.seed} --check ${c.checkId}`);
      // The exchange that broke the rule is the one the failure names, shown first.
      const ex = c.failure.exchange;
      expect(await card.locator('.exchange').first().textContent()).toContain(`HTTP ${ex.response.status}`);
      if (c.failure.comparison) {
        const differs = c.failure.comparison.filter((x: any) => x.differs).map((x: any) => x.field);
        expect(await card.locator('table.compare tr.differs').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-field')))).toEqual(differs);
      }
      // Section 7 rows are quoted from the model: the message of the row is on the card.
      for (const id of c.failure.rules) expect(text).toContain(id);
    }
    const withComparison = failed.filter((c: any) => c.failure.comparison);
    expect(withComparison.length).toBeGreaterThan(0);
    // A failure on a call with a token: the curl reads it from $BAAS_TOKEN and the mint command is beside it.
    const curls = await page.locator('pre.curl').allTextContents();
    const mints = await page.locator('pre.mint').allTextContents();
    expect(curls.length).toBe(failed.length);
    expect(curls.some((c) => c.includes('"$BAAS_TOKEN"'))).toBe(true);
    expect(mints.length).toBeGreaterThan(0);
    for (const m of mints) expect(m).toMatch(/export BAAS_(TOKEN|S2S_TOKEN)="\$\(curl .*"\$BAAS_CLIENT_SECRET"/);
    expect(curls.some((c) => c.includes('"client_secret":"\'"$BAAS_CLIENT_SECRET"\'"'))).toBe(true);
  });

  it('never shows a secret: the profile secrets are in neither the page nor the file', async () => {
    expect(fail.secrets.length).toBeGreaterThan(0);
    const file = await readFile(fail.html, 'utf8');
    const shown = (await pages.failOn.locator('body').textContent()) ?? '';
    for (const s of fail.secrets) {
      expect(file).not.toContain(s);
      expect(shown).not.toContain(s);
    }
  });

  it('a hostile target cannot run script: markup in reasons, messages, headers and bodies stays text', async () => {
    const page = pages.failOn;
    await page.click('label[for="filter-all"]');
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(on.watch.dialogs).toEqual([]);
    expect(off.watch.dialogs).toEqual([]);
    // The markup is on the page as text, in the message, the comparison, the header and the body.
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain(HOSTILE);
    expect(await page.locator('article.failure img, article.failure script, table.rules script').count()).toBe(0);
    expect(await page.locator('pre', { hasText: `x-hostile: ${HOSTILE}` }).count()).toBeGreaterThan(0);
    // The comparison shows values as JSON (quotes escaped), so look for the unquoted script part.
    expect(await page.locator('table.compare td', { hasText: '<script>window.__pwned=1;alert(1)</script>' }).count()).toBeGreaterThan(0);
  });

  it('loads nothing, logs no error and violates no CSP (scripts on and off)', async () => {
    for (const page of [pages.passOn, pages.failOn]) expect(await cspViolations(page)).toEqual([]);
    expect(on.watch.problems).toEqual([]);
    expect(off.watch.problems).toEqual([]);
    const csp = await pages.passOn.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe');
    // The stylesheet applied (the CSP hash matched): a filter label is laid out as a pill.
    expect(await pages.passOn.locator('label[for="filter-all"]').evaluate((el) => getComputedStyle(el).borderRadius)).not.toBe('0px');
  });

  it('prints without the filter bar, showing what the filter shows', async () => {
    const page = pages.failOn;
    await page.click('label[for="filter-failed"]');
    await page.emulateMedia({ media: 'print' });
    try {
      expect(await page.locator('nav.filters').isVisible()).toBe(false);
      expect(await visibleCount(page, 'article.failure')).toBe(fail.json.summary.failed);
      expect(await visibleCount(page, 'table.checks tr.item')).toBe(fail.json.summary.failed);
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
  });
});

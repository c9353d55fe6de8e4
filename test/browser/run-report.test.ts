// The run report in a real browser: a failing run against a hostile variant of the reference (its
// error bodies, reasons and headers carry <script> and onerror markup; its card-tokenization
// endpoint answers 404) with an expected-failures file, then a passing run against the embedded
// reference with the failing run as --baseline (so its diff lists what was fixed). The numbers
// shown must equal results.json, the filter must work with scripts on and off, nothing may run,
// load or violate the CSP, and no secret may reach the page.
// Size: over 300 lines: one browser session over two real runs serves every assertion about the run
// report (numbers, filters, cards, replay, hostile markup, print), so the expensive runs happen once.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExpectedFailures } from '../../src/baseline/index.ts';
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

async function passingRun(dir: string, baseline: string): Promise<Report> {
  const { io, err } = captureIo({ cwd: dir });
  const code = await main(['run', '--report-dir', dir, '--seed', '7', '--baseline', baseline, '--min-coverage', '0.5'], io);
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
      // A missing card-tokenization endpoint: the push-to-card checks depend on it as a setup step.
      if (req.operationId === 'tokenizeCard') {
        res.status = 404;
        res.body = JSON.stringify({ error: 'not found' });
        return;
      }
      // Listing wallets fails: checks that need it as a setup step are blocked by that operation.
      if (req.operationId === 'listWallets') {
        res.status = 500;
        res.body = JSON.stringify({ error_reason: 'ErrorInternal', error_description: HOSTILE });
        return;
      }
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
    // One listed failure is waived; one listed check passes (the list rots, the run fails on it).
    const listFile = join(dir, 'expected-failures.json');
    await mkdir(dir, { recursive: true });
    await writeFile(listFile, JSON.stringify([
      { check: 'errors.token.client-id-missing', reason: 'ticket 42: hostile <b>reason</b>' },
      { check: 'errors.s2s.user-not-found', reason: 'fixed long ago' },
    ]));
    const checkIds = [
      'errors.*',
      'schema.tokenize-card', 'schema.create-recipient-v2', 'schema.estimate-card-transfer', 'schema.execute-card-transfer', 'aliases.recipient.address',
      'schema.list-wallets', 'schema.get-full-statement', 'aliases.withdrawal.account-address',
    ];
    const outcome = await runChecks(
      { profile, model: await loadModel(), seed: 11, checkIds, expectedFailures: await loadExpectedFailures(listFile) },
      await loadChecks(),
      createReporters(paths),
    );
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
    // Chromium starts while the runs run (the passing run needs the failing one's results as its baseline).
    const launching = launchBrowser();
    try {
      fail = await failingRun(join(dir, 'fail'));
      pass = await passingRun(join(dir, 'pass'), join(dir, 'fail', 'results.json'));
    } finally {
      browser = await launching; // afterAll closes it, also when a run threw
    }
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
      for (const [name, want] of Object.entries({ passed: s.passed, failed: s.failed, blocked: s.blocked, skipped: s.skipped, warned: s.warned, total: s.total, requests: s.requests })) {
        expect(await shownNumber(page, name, '.cards'), name).toBe(want);
      }
      for (const k of ['passed', 'failed', 'blocked', 'skipped', 'uncovered', 'untestable', 'total']) expect(await shownNumber(page, `rules-${k}`, '.cards'), k).toBe(s.rules[k]);
      if (report.json.rootCauses.length) expect(await shownNumber(page, 'root-causes', '.cards')).toBe(s.rootCauses);
      expect(await page.locator('table.causes tr[data-cause]').count()).toBe(report.json.rootCauses.length);

      const cov = s.coverage;
      expect(cov, 'results.json carries the coverage summary').toBeDefined();
      expect(await shownNumber(page, 'coverage-rules-exercised', '#coverage')).toBe(cov.rules.exercised);
      expect(await shownNumber(page, 'coverage-rules-testable', '#coverage')).toBe(cov.rules.testable);
      expect((await page.locator('#coverage [data-count="coverage-exercised"]').textContent())?.trim()).toBe(`${Math.round(cov.exercisedShareOfTestable * 1000) / 10}%`);
      expect(await page.locator('#coverage table.skip-reasons tbody tr').count()).toBe(cov.skippedByReason.length);

      const checks: any[] = report.json.checks;
      const rules: any[] = report.json.rules;
      const sections = [...new Set([...checks.map((c) => major(c.section)), ...rules.map((r) => major(r.section))])];
      expect(await page.locator('table.by-section tbody tr').count()).toBe(sections.length);
      for (const sec of sections) {
        const row = `table.by-section tbody tr[data-section="${sec}"]`;
        const cs = checks.filter((c) => major(c.section) === sec);
        const rs = rules.filter((r) => major(r.section) === sec);
        for (const v of ['pass', 'fail', 'blocked', 'skip']) expect(await shownNumber(page, `checks-${v}`, row), `§${sec} checks ${v}`).toBe(cs.filter((c) => c.verdict === v).length);
        for (const v of ['pass', 'fail', 'blocked', 'skip', 'uncovered', 'untestable']) expect(await shownNumber(page, `rules-${v}`, row), `§${sec} rules ${v}`).toBe(rs.filter((r) => r.verdict === v).length);
        expect(await shownNumber(page, 'rules-total', row)).toBe(rs.length);
        const testable = rs.filter((r) => r.verdict !== 'untestable').length;
        const observed = rs.filter((r) => r.verdict === 'pass' || r.verdict === 'fail').length;
        expect((await page.locator(`${row} [data-count="coverage"]`).textContent())?.trim()).toBe(testable ? `${Math.round((observed / testable) * 100)}%` : '–');
      }
      for (const area of new Set(checks.map((c) => c.area))) {
        const row = `table.by-area tr[data-area="${area}"]`;
        for (const v of ['pass', 'fail', 'blocked', 'skip']) expect(await shownNumber(page, v, row), `${area} ${v}`).toBe(checks.filter((c) => c.area === area && c.verdict === v).length);
      }
    }
  });

  it('filters failed / skipped / all with scripts on and with scripts off', async () => {
    for (const [page, report] of [[pages.passOn, pass], [pages.passOff, pass], [pages.failOn, fail], [pages.failOff, fail]] as const) {
      const checks: any[] = report.json.checks;
      const rules: any[] = report.json.rules;
      // The failed filter shows failed and blocked checks and rules: both fail the run.
      const n = (list: any[], v?: string) => list.filter((x) => !v || x.verdict === v || (v === 'fail' && x.verdict === 'blocked')).length;
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
    expect(await page.locator('article.failure:not(.blocked)').count()).toBe(failed.length);
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
    const curls = await page.locator('article.failure:not(.blocked) pre.curl').allTextContents();
    const mints = await page.locator('article.failure:not(.blocked) pre.mint').allTextContents();
    expect(curls.length).toBe(failed.length);
    expect(curls.some((c) => c.includes('"$BAAS_TOKEN"'))).toBe(true);
    expect(mints.length).toBeGreaterThan(0);
    for (const m of mints) expect(m).toMatch(/export BAAS_(TOKEN|S2S_TOKEN)="\$\(curl .*"\$BAAS_CLIENT_SECRET"/);
    expect(curls.some((c) => c.includes('"client_secret":"\'"$BAAS_CLIENT_SECRET"\'"'))).toBe(true);
  });

  it('root causes come first; blocked checks name the operation whose setup step failed', async () => {
    const page = pages.failOn;
    const causes: any[] = fail.json.rootCauses;
    expect(causes.length).toBeGreaterThan(0);
    const rows = page.locator('table.causes tr[data-cause]');
    for (let i = 0; i < causes.length; i++) {
      const c = causes[i];
      const row = rows.nth(i);
      expect(await row.getAttribute('data-cause')).toBe(c.id);
      expect(await shownNumber(page, 'explains', `table.causes tr[data-cause="${c.id}"]`)).toBe(c.checks.length + c.blocked.length);
      for (const r of c.rules) expect(await row.textContent()).toContain(r);
    }
    // The root-cause table is above the failure cards.
    const [causesY, failuresY] = await Promise.all(['#root-causes', 'section.failures'].map((sel) => page.locator(sel).evaluate((el) => el.getBoundingClientRect().top)));
    expect(causesY).toBeLessThan(failuresY);
    const blocked = fail.json.checks.filter((x: any) => x.verdict === 'blocked');
    expect(blocked.map((c: any) => c.blocked.operation)).toContain('listWallets');
    expect(await page.locator('article.failure.blocked').count()).toBe(blocked.length);
    // The blocking operation is a root cause that lists the checks it blocked.
    const cause = causes.find((c) => c.blocked.some((id: string) => blocked.some((b: any) => b.checkId === id)));
    expect(cause).toBeDefined();
    for (const id of cause.blocked) expect(await page.locator(`table.causes tr.cause-checks a[href="#check-${id}"]`).count()).toBe(1);
    for (const c of blocked) {
      const card = page.locator(`article.failure.blocked[id="check-${c.checkId}"]`);
      const text = (await card.textContent()) ?? '';
      expect(text).toContain(`Blocked by ${c.blocked.operation}`);
      for (const r of c.blocked.rules) expect(text).toContain(r);
    }
  });

  it('shows the expected-failures outcome and why the exit code is what it is', async () => {
    const page = pages.failOn;
    const x = fail.json.expected;
    expect(x.waived.map((w: any) => w.check)).toEqual(['errors.token.client-id-missing']);
    expect(x.problems.map((p: any) => p.check)).toEqual(['errors.s2s.user-not-found']);
    expect(await page.locator('#expected-failures tr[data-waived]').evaluateAll((r) => r.map((e) => e.getAttribute('data-waived')))).toEqual(x.waived.map((w: any) => w.check));
    expect(await page.locator('#expected-failures tr[data-problem]').evaluateAll((r) => r.map((e) => e.getAttribute('data-problem')))).toEqual(x.problems.map((p: any) => p.check));
    expect(await page.locator('#expected-failures').textContent()).toContain('ticket 42: hostile <b>reason</b>');
    const exit = (await page.locator('[data-value="exit"]').textContent()) ?? '';
    expect(exit).toContain(`Exit code ${fail.json.exit.code}`);
    for (const r of fail.json.exit.reasons) expect(exit).toContain(r);
  });

  it('against a baseline, lists what was fixed, newly fails and became skipped, as results.json says', async () => {
    const page = pages.passOn;
    const d = pass.json.diff;
    expect(d.checks.fixed.length).toBeGreaterThan(0);
    for (const [key, name] of [['newlyFailing', 'newly-failing'], ['fixed', 'fixed'], ['newlySkipped', 'newly-skipped'], ['other', 'other']] as const) {
      expect(await shownNumber(page, `diff-${name}`, '#baseline-diff'), name).toBe(d.checks[key].length);
      const ids = await page.locator(`#baseline-diff table[data-diff="check"] tr[data-change="${name}"] code`).allTextContents();
      expect(ids, name).toEqual(d.checks[key].map((c: any) => c.id));
      const ruleIds = await page.locator(`#baseline-diff table[data-diff="rule"] tr[data-change="${name}"] code`).allTextContents();
      expect(ruleIds, `rules ${name}`).toEqual(d.rules[key].map((c: any) => c.id));
    }
    expect(await shownNumber(page, 'diff-rules-fixed', '#baseline-diff')).toBe(d.rules.fixed.length);
    // --min-coverage 0.5 on the full run: shown as met.
    expect(pass.json.summary.coverage.minimum).toEqual({ share: 0.5, met: true });
    expect(await page.locator('#coverage').textContent()).toContain('minimum 50%: met');
    // A run without --baseline has no diff section.
    expect(await pages.failOn.locator('#baseline-diff').count()).toBe(0);
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
      const s = fail.json.summary;
      expect(await visibleCount(page, 'article.failure')).toBe(s.failed + s.blocked);
      expect(await visibleCount(page, 'table.checks tr.item')).toBe(s.failed + s.blocked);
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
  });
});

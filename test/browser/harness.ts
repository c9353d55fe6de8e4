// Headless Chromium for the report tests: Debian's /usr/bin/chromium driven by playwright-core.
// One browser per test file, pages reused. Without Chromium the tests skip with a visible message,
// except under CI (CI set), where a missing browser is a failure: CI must prove the reports work.

import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.BAAS_CHROMIUM ?? '/usr/bin/chromium';

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const hasChromium = existsSync(CHROMIUM_PATH);
export const inCi = !!process.env.CI && process.env.CI !== 'false';

/** Skip decision for a browser test file; prints why when it skips. */
export function browserAvailability(): { skip: boolean } {
  if (hasChromium) return { skip: false };
  if (inCi) return { skip: false }; // launch() below fails loudly: CI must have the browser.
  console.warn(`\n*** browser tests SKIPPED: no Chromium at ${CHROMIUM_PATH} (install it: apt-get install -y chromium; or set BAAS_CHROMIUM). Under CI=true this is a failure. ***\n`);
  return { skip: true };
}

export async function launchBrowser(): Promise<Browser> {
  if (!hasChromium) throw new Error(`CI is set and there is no Chromium at ${CHROMIUM_PATH}: .ci/run installs it (apt-get install -y --no-install-recommends chromium)`);
  // launch() gives every browser a fresh temporary user-data-dir and removes it on close.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS, timeout: 60_000 });
}

/** What a page did that a report must never do: console errors, CSP violations, dialogs, page errors. */
export interface PageWatch {
  problems: string[];
  dialogs: string[];
}

/** Records console errors and warnings, page errors, dialogs and (with scripts on) CSP violations. */
export async function watchedContext(browser: Browser, javaScriptEnabled: boolean): Promise<{ context: BrowserContext; watch: PageWatch }> {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
  const watch: PageWatch = { problems: [], dialogs: [] };
  // Injected through the DevTools protocol, so the page's CSP does not apply to this listener.
  if (javaScriptEnabled) {
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as any).__cspViolations = [...((window as any).__cspViolations ?? []), `${e.violatedDirective} ${e.blockedURI}`];
      });
    });
  }
  context.on('page', (page) => attach(page, watch));
  return { context, watch };
}

function attach(page: Page, watch: PageWatch): void {
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') watch.problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => watch.problems.push(`page error: ${e.message}`));
  page.on('dialog', async (d) => {
    watch.dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss().catch(() => undefined);
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) watch.problems.push(`request to ${r.url()}`);
  });
}

export async function openReport(context: BrowserContext, file: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return page;
}

/** CSP violations seen by the init-script listener (scripts-on pages only). */
export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as any).__cspViolations ?? []);
}

/** Count of elements matching `selector` that are rendered (not display:none anywhere up the tree). */
export async function visibleCount(page: Page, selector: string): Promise<number> {
  return page.locator(`${selector} >> visible=true`).count();
}

/** Text content of the element with `data-count="name"` inside `scope`, as a number. */
export async function shownNumber(page: Page, name: string, scope = 'body'): Promise<number> {
  const text = await page.locator(`${scope} [data-count="${name}"]`).first().textContent();
  return Number((text ?? '').trim());
}

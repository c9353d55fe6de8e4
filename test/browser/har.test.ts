// The HAR of a run, opened in headless Chromium: Playwright's HAR router (routeFromHAR, the same
// reader its trace viewer uses) loads the file and serves the recorded answers to the browser after
// the target is gone, so the page shows exactly what the target sent, masked. A file the router
// cannot read fails here even when it passes the schema.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import { startReference } from '../../src/reference/index.ts';
import { HarReporter, type Har } from '../../src/report/index.ts';
import { browserAvailability, launchBrowser } from './harness.ts';

const { skip } = browserAvailability();

describe.skipIf(skip)('run --har opens in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let har: Har;
  const file = () => join(dir, 'run.har');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baas-har-browser-'));
    const ref = await startReference();
    try {
      await runConformance({ profile: ref.profile, env: {}, seed: 11, checks: ['schema.get-config', 'schema.get-user-v2', 'errors.token.*'], reporters: [new HarReporter(file())] });
    } finally {
      // Closed before the browser reads anything: every answer it gets comes from the file.
      await ref.close();
    }
    har = JSON.parse(await readFile(file(), 'utf8')) as Har;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves each recorded GET answer from the HAR, body and status as recorded', async () => {
    const gets = har.log.entries.filter((e) => e.request.method === 'GET' && e.response.status === 200);
    expect(gets.map((e) => e._check)).toEqual(expect.arrayContaining(['schema.get-config', 'schema.get-user-v2']));
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      // notFound abort: a request the file does not hold fails instead of reaching the network.
      await context.routeFromHAR(file(), { notFound: 'abort' });
      for (const entry of gets) {
        const page = await context.newPage();
        const res = await page.goto(entry.request.url);
        expect(res?.status(), entry.request.url).toBe(entry.response.status);
        expect(await res?.text()).toBe(entry.response.content.text);
        await page.close();
      }
      // And the router does hold only what the file has: an unrecorded URL is refused.
      const page = await context.newPage();
      await expect(page.goto(new URL('/not-recorded', gets[0].request.url).href)).rejects.toThrow();
      await page.close();
    } finally {
      await context.close();
    }
  });
});

// The bundled CLI that tests start as a child process (test/cli-bundle.ts) is the checkout's CLI: it
// reads this checkout's spec/ and suites/ (import.meta.url kept per source module) and answers as the
// sources do in-process. Were the globalSetup gone, cliEntry() would name the launcher and this fails.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { captureIo } from '../../src/cli/capture.ts';
import { main } from '../../src/cli/index.ts';
import { PACKAGE_ROOT } from '../../src/package/index.ts';
import { cliEntry } from '../cli-bundle.ts';

describe('the bundled CLI of the tests', () => {
  it('runs outside the checkout, through the launcher\'s compiled-code branch, and answers as the sources do', async () => {
    const entry = cliEntry();
    expect(path.relative(PACKAGE_ROOT, entry).startsWith('..')).toBe(true);
    expect(path.basename(entry)).toBe('baas-conform.js');
    const child = await promisify(execFile)(process.execPath, [entry, 'rules', '--json'], { cwd: PACKAGE_ROOT, env: { ...process.env, BAAS_CONFORM_DIST: '' }, maxBuffer: 16 * 1024 * 1024 });
    const c = captureIo({ env: {} });
    expect(await main(['rules', '--json'], c.io)).toBe(0);
    expect(child.stdout.length).toBeGreaterThan(1000);
    expect(child.stdout).toBe(c.out());
  });
});

// Ctrl-C on `baas-conform selftest`: the variant runs stop (their worker threads and the reference
// servers in them with them), nothing is scored, and the process ends by itself with the
// cancellation exit code. Ending by itself is the proof that nothing is left listening: a server or
// worker still open would keep Node's event loop alive, and Node's own SIGINT death (the second
// Ctrl-C) reports the signal, not an exit code.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/errors/index.ts';
import { PACKAGE_ROOT } from '../../src/package/index.ts';
import { cliEntry } from '../cli-bundle.ts';

/** Generous bounds: a loaded 2-core machine must never make them the verdict. */
const STARTED_WITHIN_MS = 120_000;
const EXITED_WITHIN_MS = 60_000;
const LONG_VARIANT = 'benign.latency-2s.every-16th';

describe('selftest cancellation (SIGINT)', () => {
  it('stops the variant runs and exits with the cancellation code, leaving nothing running', async () => {
    // A variant that runs for a minute (2 s answers), so the Ctrl-C lands while it runs however late a
    // loaded machine lets this test see the header: a short variant could finish first, and a Ctrl-C
    // after the run (no handler any more) is Node's own SIGINT death, not the cancellation.
    const child = spawn(process.execPath, [cliEntry(), 'selftest', '--variant', LONG_VARIANT, '--workers', '1'], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
    try {
      // The header line is printed just before the variant runs start.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`selftest printed no header within ${STARTED_WITHIN_MS} ms: ${out}${err}`)), STARTED_WITHIN_MS);
        const poll = setInterval(() => {
          if (/^selftest: baseline \+ 1 variants/m.test(out)) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve();
          }
        }, 20);
        child.once('exit', () => {
          clearInterval(poll);
          clearTimeout(timer);
          reject(new Error(`selftest exited before it was cancelled: ${out}${err}`));
        });
      });
      child.kill('SIGINT');
      const bounded = new Promise<'still running'>((r) => setTimeout(() => r('still running'), EXITED_WITHIN_MS).unref());
      const ended = await Promise.race([exited, bounded]);
      expect(ended, `${out}${err}`).toEqual({ code: new CancelledError('').exitCode, signal: null });
      expect(err).toMatch(/cancelling: running variants are stopped/);
      expect(err).toMatch(/selftest cancelled/);
      expect(out).not.toMatch(/Mutation score/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, STARTED_WITHIN_MS + EXITED_WITHIN_MS + 10_000);
});

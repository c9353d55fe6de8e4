import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { cliEntry } from '../../../test/cli-bundle.ts';
import { DEFAULT_RATE_LIMIT } from '../../reference/index.ts';
import { serve } from './serve.ts';

const io = (out: string[]) => ({ stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true }, env: {}, cwd: process.cwd() });

describe('serve', () => {
  it('prints the profile as the first line, writes --profile-out, and closes on stop', async () => {
    const out: string[] = [];
    const dir = await mkdtemp(join(tmpdir(), 'serve-'));
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const done = serve({ port: 0, profileOut: join(dir, 'p.json') }, io(out), stopped);
    while (out.length === 0) await new Promise((r) => setTimeout(r, 10));
    const profile = JSON.parse(out[0]);
    expect(profile.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(profile.control_url).toBe(`${profile.base_url}/__control`);
    const c = profile.clients[0];
    const r = await request(`${profile.base_url}/api/v1/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: c.client_id, client_secret: c.client_secret, grant_type: 'client_credentials' }) });
    expect(r.statusCode).toBe(200);
    await r.body.dump();
    while (!(await readFile(join(dir, 'p.json'), 'utf8').catch(() => ''))) await new Promise((r) => setTimeout(r, 10));
    expect(JSON.parse(await readFile(join(dir, 'p.json'), 'utf8'))).toEqual(profile);
    stop();
    expect(await done).toBe(0);
    await expect(request(`${profile.base_url}/api/v1/config`)).rejects.toThrow();
  });

  it('publishes the token limits it was given (--rate-limit-*) as profile.rate_limit, defaults for the rest, and refuses a bad value', async () => {
    const out: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const done = serve({ port: 0, rateLimitPerIp: 3, rateLimitWindow: 2.5 }, io(out), stopped);
    while (out.length === 0) await new Promise((r) => setTimeout(r, 10));
    expect(JSON.parse(out[0]).rate_limit).toMatchObject({ per_ip: 3, per_client: DEFAULT_RATE_LIMIT.perClient, window_seconds: 2.5 });
    stop();
    expect(await done).toBe(0);
    await expect(serve({ port: 0, rateLimitWindow: 0 }, io([]), stopped)).rejects.toThrow(/--rate-limit-window must be a positive number/);
    await expect(serve({ port: 0, rateLimitPerIp: 1.5 }, io([]), stopped)).rejects.toThrow(/--rate-limit-per-ip must be a positive integer/);
  });

  it('runs as `baas-conform serve --no-control` and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [cliEntry(), 'serve', '--no-control'], { cwd: join(import.meta.dirname, '..', '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const profile = JSON.parse(first);
    expect(profile.control_url).toBeUndefined();
    const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 30_000);
});

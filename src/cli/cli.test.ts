import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from './index.ts';
import { captureIo } from './capture.ts';
import { COMMANDS } from './commands/index.ts';
import { PACKAGE_ROOT } from '../package/index.ts';
import { cliEntry } from '../../test/cli-bundle.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function cli(argv: string[], env: Record<string, string> = {}) {
  const cwd = await mkdtemp(join(tmpdir(), 'bc-cli-'));
  const c = captureIo({ env, cwd });
  const code = await main(argv, c.io);
  return { code, stdout: c.out(), stderr: c.err(), cwd };
}

describe('cli', () => {
  it('--help lists every command of the registry; a command\'s --help its own flags', async () => {
    // yargs prints help on the process's stdout, so the CLI runs as a user runs it (bundled: test/cli-bundle.ts).
    const help = (...args: string[]) => promisify(execFile)(process.execPath, [cliEntry(), ...args], { cwd: PACKAGE_ROOT });
    const top = (await help('--help')).stdout;
    for (const c of COMMANDS) expect(top).toContain(`baas-conform ${c.command}`);
    for (const c of COMMANDS) expect(c.command.split(' ')[0]).toBe(c.name);
    const run = (await help('run', '--help')).stdout;
    expect(run).toMatch(/--rate-limit-wait/);
    expect(run).not.toMatch(/--metrics-port/);
  });

  it('usage errors exit 2 with one line', async () => {
    const r = await cli(['run', '--nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('baas-conform: Unknown argument: nope\n');
    expect((await cli(['run', '--shard', '3/2'])).code).toBe(2);
    expect((await cli(['run', '--seed', '-1'])).code).toBe(2);
  });

  it('an unreachable target exits 3 with what to fix', async () => {
    const r = await cli(['run', '--target', 'http://127.0.0.1:1'], { BAAS_CLIENT_ID: 'id', BAAS_CLIENT_SECRET: 'top-secret-value' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^baas-conform: cannot reach http:\/\/127\.0\.0\.1:1: connection refused.*\n$/);
  });

  it('rejected credentials exit 2 and never print the secret', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error_reason":"ErrorPermissionDenied"}');
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await cli(['run', '--target', url], { BAAS_CLIENT_ID: 'id', BAAS_CLIENT_SECRET: 'top-secret-value' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the target rejected profile.clients[0]');
    expect(r.stderr + r.stdout).not.toContain('top-secret-value');
  });

  it('a bad config file exits 2 naming the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bc-cli-cfg-'));
    await writeFile(join(dir, 'c.json'), JSON.stringify({ concurrency: 'lots' }));
    const r = await cli(['run', '--config', join(dir, 'c.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('config.concurrency: must be an integer');
  });
});

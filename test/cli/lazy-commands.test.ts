// `--help` stays fast: the registry (src/cli/commands/index.ts) imports a command's module only when
// that command is chosen, and `--help` alone imports none. A loader hook in the child records every
// module it resolves under src/cli/commands/, so a registry that imports eagerly fails here.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.ts';
import { PACKAGE_ROOT } from '../../src/package/index.ts';

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  const m = /\\/src\\/cli\\/commands\\/([^/]+)\\.ts$/.exec(r.url);
  if (m) appendFileSync(process.env.BAAS_TEST_IMPORT_LOG, m[1] + '\\n');
  return r;
}
`;

let dir: string;
let hooks: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bc-lazy-'));
  hooks = join(dir, 'hooks.mjs');
  await writeFile(hooks, HOOKS);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The command modules the CLI imported for `args` (index is the registry itself). */
async function imported(...args: string[]): Promise<string[]> {
  const log = join(dir, `${args.join('_').replace(/\W/g, '')}.log`);
  await writeFile(log, '');
  const register = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(pathToFileURL(hooks).href)})`;
  await promisify(execFile)(process.execPath, ['--import', register, join(PACKAGE_ROOT, 'bin', 'baas-conform.js'), ...args], { cwd: PACKAGE_ROOT, env: { ...process.env, BAAS_TEST_IMPORT_LOG: log } });
  return [...new Set((await readFile(log, 'utf8')).split('\n').filter((m) => m && m !== 'index'))];
}

describe('command registry (lazy)', () => {
  it('--help alone imports no command module', async () => {
    expect(await imported('--help')).toEqual([]);
  });

  it.each(['rules', 'replay', 'history'])('%s --help imports that command module only', async (name) => {
    expect(COMMANDS.some((c) => c.name === name)).toBe(true);
    expect(await imported(name, '--help')).toEqual([name]);
  });
});

// `--help` stays fast: the registry (src/cli/commands/index.ts) imports a command's module only when
// that command is chosen, and `--help` alone imports none. A loader hook in the child records every
// module it resolves under src/cli/commands/, so a registry that imports eagerly fails here. The same
// children log every other module they resolve: a command's start loads only what its flags and its
// mode's first steps need (the mutant bank, the reference, the report and metrics packages are imported
// where used), so a command module that reaches them through a barrel fails here too.
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
  else appendFileSync(process.env.BAAS_TEST_IMPORT_LOG + '.all', r.url + '\\n');
  return r;
}
`;

// The resolve hook sees ES imports only: the CommonJS modules the child required (a package loaded on
// first use through createRequire, as src/input/yaml.ts does) are logged from require.cache at its exit.
const REQUIRED = `process.on('exit', () => require('node:fs').appendFileSync(process.env.BAAS_TEST_IMPORT_LOG + '.all', Object.keys(require.cache).map((f) => require('node:url').pathToFileURL(f).href + '\\n').join('')));
`;

let dir: string;
let hooks: string;
let required: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bc-lazy-'));
  hooks = join(dir, 'hooks.mjs');
  required = join(dir, 'required.cjs');
  await writeFile(hooks, HOOKS);
  await writeFile(required, REQUIRED);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Every module URL the CLI resolved for `args`, by the args joined with spaces. */
const resolved = new Map<string, string[]>();

/** The command modules the CLI imported for `args` (index is the registry itself). */
async function imported(...args: string[]): Promise<string[]> {
  const log = join(dir, `${args.join('_').replace(/\W/g, '')}.log`);
  await writeFile(log, '');
  const register = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(pathToFileURL(hooks).href)})`;
  await promisify(execFile)(process.execPath, ['--require', required, '--import', register, join(PACKAGE_ROOT, 'bin', 'baas-conform.js'), ...args], { cwd: PACKAGE_ROOT, env: { ...process.env, BAAS_TEST_IMPORT_LOG: log } });
  resolved.set(args.join(' '), (await readFile(`${log}.all`, 'utf8').catch(() => '')).split('\n').filter(Boolean));
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

  it('load --help imports load and the coordinate flags it declares, no other command', async () => {
    expect((await imported('load', '--help')).sort()).toEqual(['load', 'load-coordinate']);
  });
});

/** The resolved modules of one start above that match `pattern`, as paths from src/ or package names. */
function loadedOf(args: string, pattern: RegExp): string[] {
  const urls = resolved.get(args);
  expect(urls?.length, `${args} ran above and logged what it resolved`).toBeGreaterThan(0);
  return [...new Set((urls ?? []).filter((u) => pattern.test(u)).map((u) => u.replace(/^.*\/(src|node_modules)\//, '')))];
}

// Runs after the registry's tests (same file, in order): it reads what their children resolved.
describe('a command start loads what the command needs', () => {
  it('rules loads neither the mutant bank nor the reference (only --audit and --json reach them)', () => {
    expect(loadedOf('rules --help', /\/src\/(mutants|reference|audit\/bank)\//)).toEqual([]);
    expect(loadedOf('rules --help', /\/src\/model\//).length).toBeGreaterThan(0);
  });

  it('a start that reads no YAML file loads no YAML parser (the model comes from its snapshot)', () => {
    for (const args of ['rules --help', 'replay --help', 'history --help', 'load --help']) expect(loadedOf(args, /\/node_modules\/yaml\//), args).toEqual([]);
    // The CommonJS half of the log works: it holds the files ajv requires inside itself, which no ES import resolves.
    expect(loadedOf('rules --help', /\/node_modules\/ajv\/dist\/compile\//).length).toBeGreaterThan(0);
  });

  it('load loads no coordinator, metrics, HTML report or reference unless asked for', () => {
    expect(loadedOf('load --help', /\/src\/(load\/coordinator|load\/metrics|load\/html|reference|mutants)\/|\/node_modules\/(prom-client|handlebars|@opentelemetry)\//)).toEqual([]);
    expect(loadedOf('load --help', /\/src\/load\/run\.ts$/).length).toBe(1);
  });

  it('replay and history, whose modes run checks, still load none of the mutant bank', () => {
    expect(loadedOf('replay --help', /\/src\/mutants\//)).toEqual([]);
    expect(loadedOf('history --help', /\/src\/mutants\//)).toEqual([]);
  });
});

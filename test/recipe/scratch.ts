// A scratch copy of the repository that the recipe tests apply the guide's steps to, the edit those
// steps make (text inserted beside a named sibling line, which must still be there), running a
// command in the copy and typechecking it. recipes.test.ts makes one copy for every recipe of
// docs/extend-the-toolkit.md.

import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What a checkout holds that generating, typechecking, running and the tests near a change need (node_modules is linked). */
const COPIED = ['spec', 'src', 'suites', 'generators', 'bin', 'reports', 'examples', 'bench', 'lint', 'test', 'docs', 'README.md', 'package.json', 'tsconfig.json', 'vitest.config.ts'];

export async function scratchCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'baas-recipe-'));
  // Of test/recipe only the guide's tool is kept: the copy never runs these tests inside itself, and the
  // edits quote facts the copy's model then holds (the single-source scan would find them).
  const skip = (src: string) => src.startsWith(path.join(ROOT, 'test/recipe/')) && path.basename(src) !== 'update-library-table.ts';
  for (const name of COPIED) await cp(path.join(ROOT, name), path.join(dir, name), { recursive: true, filter: (src) => !skip(src) });
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Inserts `text` before (or after) the line of `file` that contains `anchor`; throws when the anchor is gone. */
export async function insertAt(dir: string, file: string, anchor: string, text: string, where: 'before' | 'after'): Promise<void> {
  const p = path.join(dir, file);
  const src = await readFile(p, 'utf8');
  const at = src.indexOf(anchor);
  if (at < 0) throw new Error(`recipe: ${file} no longer contains ${JSON.stringify(anchor)}; update test/recipe and the guide`);
  const line = where === 'before' ? src.lastIndexOf('\n', at) + 1 : src.indexOf('\n', at) + 1;
  await writeFile(p, src.slice(0, line) + text + src.slice(line));
}

/** Replaces the one occurrence of `from` in `file`; throws when it is gone. */
export async function replaceIn(dir: string, file: string, from: string, to: string): Promise<void> {
  const p = path.join(dir, file);
  const src = await readFile(p, 'utf8');
  if (!src.includes(from)) throw new Error(`recipe: ${file} no longer contains ${JSON.stringify(from)}; update test/recipe and the guide`);
  await writeFile(p, src.replace(from, to));
}

/** The child's environment without this runner's own VITEST_* variables (the tests near a change run their own vitest). */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))) as NodeJS.ProcessEnv;

export interface Ran {
  code: number;
  out: string;
  /** Wall time (reported, never asserted). */
  ms?: number;
}

const exec = promisify(execFile);

/** Runs `cmd` in the copy, bounded in time; its exit code and output, stdout then stderr. */
export async function run(dir: string, cmd: string, args: string[], timeoutMs = 300_000): Promise<Ran> {
  const t0 = performance.now();
  try {
    const { stdout, stderr } = await exec(cmd, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs, killSignal: 'SIGKILL' });
    return { code: 0, out: stdout + stderr, ms: performance.now() - t0 };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}`, ms: performance.now() - t0 };
  }
}

export const log = (step: string, r: Ran) =>
  console.log(`recipe ${step}: exit ${r.code}${r.ms !== undefined ? ` in ${(r.ms / 1000).toFixed(1)} s` : ''}\n${r.out.trim().split('\n').slice(-6).join('\n')}`);

/** The files tsc reports errors in (paths relative to the copy), sorted. */
export const tscErrorFiles = (out: string): string[] => [...new Set([...out.matchAll(/^([^\s(][^(]*)\(\d+,\d+\): error TS/gm)].map((m) => m[1]))].sort();

export interface Typechecker {
  /** `tsc -p tsconfig.json --noEmit` on the copy as it is now: tsc's exit code and diagnostics. */
  check(timeoutMs?: number): Promise<Ran>;
  close(): void;
}

/**
 * One typecheck process for the copy (test/recipe/typecheck.ts), checked again after each step: the
 * second check re-checks only what the steps in between can affect, with the same diagnostics and exit
 * code as a fresh tsc. The process is killed when a check exceeds its time or on close().
 */
export function typechecker(dir: string): Typechecker {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/recipe/typecheck.ts'), dir], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  // A dead process shows as an ended output below, never as an unhandled stream error.
  child.on('error', (err) => (stderr += `${err.message}\n`));
  child.stdin.on('error', () => {});
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  const output = createInterface({ input: child.stdout });
  output.on('line', (line) => (waiting.length > 0 ? waiting.shift()!(line) : lines.push(line)));
  output.on('close', () => {
    ended = true;
    for (const w of waiting.splice(0)) w(undefined);
  });
  const next = () => (lines.length > 0 || ended ? Promise.resolve(lines.shift()) : new Promise<string | undefined>((r) => waiting.push(r)));
  return {
    async check(timeoutMs = 600_000) {
      const t0 = performance.now();
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try {
        child.stdin.write('\n');
        const out: string[] = [];
        for (let line = await next(); line !== undefined; line = await next()) {
          const end = /^typecheck: exit (\d+)$/.exec(line);
          if (end) return { code: Number(end[1]), out: out.join('\n'), ms: performance.now() - t0 };
          out.push(line);
        }
        return { code: 1, out: `${out.join('\n')}\ntypecheck process ended (exit ${child.exitCode}, signal ${child.signalCode})\n${stderr}`, ms: performance.now() - t0 };
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => {
      child.stdin.end();
      child.kill('SIGKILL');
    },
  };
}

// Every command's shared flags agree: built from the commands' own yargs builders (a recording Argv),
// so a command that redeclares a shared flag with another type, default or help text fails here, and
// so does a flag two commands declare alike-named outside the shared table.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Argv } from 'yargs';
import { loadCommands } from '../../src/cli/commands/index.ts';
import { SHARED_FLAGS } from '../../src/cli/flags.ts';

const commands = await loadCommands();

type Declared = { type?: unknown; default?: unknown; describe?: unknown; array?: unknown };

/** The options a builder declares, by name, as yargs would receive them. */
export function declaredFlags(builder: (y: Argv) => unknown): Map<string, Declared> {
  const seen = new Map<string, Declared>();
  const recorder: Argv = new Proxy({} as Argv, {
    get(_t, prop) {
      if (prop === 'option' || prop === 'options') {
        return (name: string | Record<string, Declared>, opts?: Declared) => {
          if (typeof name === 'string') seen.set(name, { ...opts });
          else for (const [n, o] of Object.entries(name)) seen.set(n, { ...o });
          return recorder;
        };
      }
      return () => recorder;
    },
  });
  builder(recorder);
  return seen;
}

const pick = (o: Declared) => ({ type: o.type, default: o.default, describe: o.describe, array: o.array ?? false });
const byCommand = commands.map((c) => ({ name: String(c.command).split(' ')[0], flags: declaredFlags(c.builder) }));
const rows = byCommand.flatMap(({ name, flags }) => [...flags].filter(([flag]) => flag in SHARED_FLAGS).map(([flag, opts]) => [name, flag, opts] as const));

/** Flags two commands declare with their own meaning (not shared): each says why. */
const OWN_MEANING: Record<string, string> = {
  html: 'run: the run report; compare: the comparison page',
  duration: 'load: seconds of load; audit: seconds until the audit ends',
  out: 'load: the result file; certify: the package directory; history: the history directory',
  key: 'certify: the private key that signs; verify: the public key that checks',
};

/** The long commands: each takes --config and stops on Ctrl-C (src/cli/cancel.ts). */
const LONG_COMMANDS = ['run', 'compare', 'certify', 'load', 'selftest', 'replay', 'history'];
const cancellable = (name: string) => /\bwithCancellation\(/.test(readFileSync(new URL(`../../src/cli/commands/${name}.ts`, import.meta.url), 'utf8'));

describe('shared flags (src/cli/flags.ts)', () => {
  it.each(LONG_COMMANDS)('%s takes --config and is cancelled by Ctrl-C', (name) => {
    expect(byCommand.find((c) => c.name === name)?.flags.has('config')).toBe(true);
    expect(cancellable(name)).toBe(true);
  });

  it('a command that can be cancelled is a long command (and takes --config)', () => {
    expect(byCommand.map((c) => c.name).filter(cancellable)).toEqual(expect.arrayContaining(LONG_COMMANDS));
    expect(byCommand.map((c) => c.name).filter((n) => cancellable(n) && !LONG_COMMANDS.includes(n))).toEqual([]);
  });

  it('are declared by the commands at all (the recorder sees them)', () => {
    expect(rows.length).toBeGreaterThanOrEqual(Object.keys(SHARED_FLAGS).length);
    expect(new Set(rows.map(([, flag]) => flag))).toEqual(new Set(Object.keys(SHARED_FLAGS)));
  });

  it.each(rows)('%s --%s has the shared type, default and meaning', (_command, flag, opts) => {
    expect(pick(opts)).toEqual(pick(SHARED_FLAGS[flag as keyof typeof SHARED_FLAGS] as Declared));
  });

  it('a flag in two or more commands is a shared flag (or says why its meaning is its own)', () => {
    const owners = new Map<string, string[]>();
    for (const { name, flags } of byCommand) for (const flag of flags.keys()) owners.set(flag, [...(owners.get(flag) ?? []), name]);
    const unshared = [...owners].filter(([flag, cs]) => cs.length > 1 && !(flag in SHARED_FLAGS) && !(flag in OWN_MEANING)).map(([flag, cs]) => `--${flag}: ${cs.join(', ')}`);
    expect(unshared).toEqual([]);
  });
});

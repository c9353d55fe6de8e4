// The README and the docs/ guides cannot go stale: every guide is linked from the README, every
// relative link and #anchor resolves, and every `baas-conform <command> --flag` they show names a
// registered command and an option that command declares (read from its yargs builder, so a renamed
// or removed flag fails here). The examples they run are pinned by their own tests (readmeBlock).

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/cli/commands/index.ts';

const commands = await loadCommands();

const ROOT = path.resolve(import.meta.dirname, '../..');
const GUIDES = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
const DOCS = ['README.md', ...GUIDES];
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8');

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes. */
const slug = (h: string) => h.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
const anchorsOf = (md: string) => new Set([...md.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1])));

/** Command name -> the options its builder declares (a recorder stands in for yargs). */
function declaredOptions(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const c of commands) {
    const names = new Set<string>(['help', 'version', 'h']);
    const add = (k: string, def?: { alias?: string | string[] }) => {
      names.add(k);
      for (const a of [def?.alias ?? []].flat()) names.add(a);
    };
    const recorder: unknown = new Proxy({}, {
      get: (_t, prop) => (...args: unknown[]) => {
        if ((prop === 'option' || prop === 'positional') && typeof args[0] === 'string') add(args[0], args[1] as { alias?: string });
        if (prop === 'options' && args[0] && typeof args[0] === 'object') for (const [k, d] of Object.entries(args[0])) add(k, d as { alias?: string });
        if (prop === 'alias' && typeof args[0] === 'string') [args[1]].flat().forEach((a) => typeof a === 'string' && names.add(a));
        return recorder;
      },
    });
    c.builder(recorder as Parameters<typeof c.builder>[0]);
    const name = String([c.command].flat()[0]).split(' ')[0];
    out.set(name, names);
  }
  return out;
}

/** `baas-conform <cmd> ...` invocations in code (fenced blocks and inline code), one per line or span. */
function invocations(md: string): string[] {
  const code = [...md.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((m) => m[1].split('\n'));
  const inline = [...md.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  return [...code, ...inline].flatMap((l) => [...l.matchAll(/\bbaas-conform ([a-z][a-z-]*)([^|;&]*)/g)].map((m) => `${m[1]}${m[2]}`));
}

describe('README and docs/ guides', () => {
  it('the README starts with the two commands', () => {
    expect(read('README.md')).toMatch(/^# baas-conform\n\n```sh\nnpm ci && npx baas-conform run\nnpm test\n```/);
  });

  it('the README links every guide, and every guide links back', () => {
    expect(GUIDES.length).toBeGreaterThanOrEqual(6);
    for (const g of GUIDES) {
      expect(read('README.md'), g).toContain(`](${g})`);
      expect(read(g), g).toContain('](../README.md)');
    }
  });

  it.each(DOCS)('%s: every relative link and #anchor resolves', (file) => {
    const md = read(file);
    const broken: string[] = [];
    for (const [, target] of md.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target)) continue;
      const [p, anchor] = target.split('#');
      const to = p ? path.join(path.dirname(path.join(ROOT, file)), p) : path.join(ROOT, file);
      if (!existsSync(to)) broken.push(`${target}: no such file`);
      else if (anchor && to.endsWith('.md') && !anchorsOf(readFileSync(to, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it.each(DOCS)('%s: every baas-conform command and flag shown exists', (file) => {
    const known = declaredOptions();
    const wrong: string[] = [];
    for (const inv of invocations(read(file))) {
      const [cmd] = inv.split(' ');
      const opts = known.get(cmd);
      if (!opts) {
        wrong.push(`${inv}: no command ${cmd}`);
        continue;
      }
      for (const [, flag] of inv.matchAll(/(?:^|[\s[(])--([a-z][a-z0-9-]*)/g)) if (!opts.has(flag) && !opts.has(flag.replace(/^no-/, ''))) wrong.push(`${inv}: ${cmd} has no --${flag}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the check fails on a guide that shows a removed flag or command (it can fail)', () => {
    const known = declaredOptions();
    expect(known.get('run')?.has('seed')).toBe(true);
    expect(known.get('run')?.has('no-such-flag')).toBe(false);
    expect(known.has('frobnicate')).toBe(false);
    expect(invocations('Try `npx baas-conform run --seed 7` then\n```sh\nbaas-conform load mixed --frob 1\n```\n')).toEqual(['load mixed --frob 1', 'run --seed 7']);
  });
});

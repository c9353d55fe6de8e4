import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { rewriteDeprecated } from '../cli/deprecated.ts';
import { parseNumber, parseShard, resolveRunOptions } from './index.ts';

describe('the options layer', () => {
  it('parses one shard shape for run and load, refusing the rest with what to give', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, total: 4 });
    expect(parseShard(undefined)).toBeUndefined();
    for (const bad of ['0/4', '5/4', '1/0', 'x', '1/2/3']) expect(() => parseShard(bad), bad).toThrow(ConfigError);
  });

  it('parses numbers within bounds and names the flag otherwise', () => {
    expect(parseNumber('port', '80', { integer: true, min: 0, max: 65535 })).toBe(80);
    expect(() => parseNumber('port', 70000, { integer: true, min: 0, max: 65535 })).toThrow(/--port must be an integer from 0 to 65535, got 70000/);
    expect(() => parseNumber('runs', 1.5, { integer: true, min: 1 })).toThrow(/--runs/);
    expect(() => parseNumber('share', '', { min: 0, max: 1 })).toThrow(/--share/);
  });

  it('resolves flag > config file > unset', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bc-options-'));
    await writeFile(join(dir, 'c.json'), JSON.stringify({ seed: 7, concurrency: 3, shard: '1/2', report_dir: 'r', profile: 'p.json' }));
    const fromConfig = await resolveRunOptions({ config: 'c.json' }, dir);
    expect(fromConfig).toMatchObject({ seed: 7, concurrency: 3, shard: { index: 1, total: 2 }, reportDir: join(dir, 'r'), reportDirGiven: true, profiles: [join(dir, 'p.json')] });
    const flagsWin = await resolveRunOptions({ config: 'c.json', seed: 9, shard: '2/2', profile: ['a.json', 'b.json'] }, dir);
    expect(flagsWin).toMatchObject({ seed: 9, concurrency: 3, shard: { index: 2, total: 2 }, profiles: [join(dir, 'a.json'), join(dir, 'b.json')] });
    expect((await resolveRunOptions({}, dir)).reportDirGiven).toBe(false);
  });

  it('keeps `--json FILE` working as --json-out FILE in run, selftest and compare, with a notice', () => {
    const err: string[] = [];
    const io = { stderr: { write: (s: string) => err.push(s) } };
    expect(rewriteDeprecated(['run', '--json', 'r.json', '--safe'], io)).toEqual(['run', '--json-out', 'r.json', '--safe']);
    expect(rewriteDeprecated(['selftest', '--json=s.json'], io)).toEqual(['selftest', '--json-out', 's.json']);
    expect(err.join('')).toMatch(/--json FILE is deprecated: use --json-out r\.json/);
    err.length = 0;
    expect(rewriteDeprecated(['run', '--json', '--safe'], io)).toEqual(['run', '--json', '--safe']);
    expect(rewriteDeprecated(['load', '--json', 'user-read'], io)).toEqual(['load', '--json', 'user-read']);
    expect(err).toEqual([]);
  });
});

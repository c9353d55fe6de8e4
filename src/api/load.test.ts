// runLoadMode, the library's load entry (the same call `baas-conform load` makes): options qualified
// once, then the embedded reference, the run and the result file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { runLoadMode } from './index.ts';

describe('runLoadMode', () => {
  it('names every bad knob at once, before any target starts', async () => {
    const run = runLoadMode({ scenario: 'user-read', flags: { duration: 1000, amount: 0 }, log: () => expect.fail('no target may start') });
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(/--duration.*--amount/);
  });

  it('runs a scenario against the embedded reference and writes the result file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'api-load-'));
    try {
      const lines: string[] = [];
      const { result } = await runLoadMode({ scenario: 'user-read', flags: { duration: 0.5, connections: 2 }, out: 'load.json', cwd: dir, log: (l) => lines.push(l) });
      expect(result.counts.responses).toBeGreaterThan(0);
      expect(result.config.connections).toBe(2);
      expect(lines.join('\n')).toMatch(/embedded reference/);
      expect(JSON.parse(await readFile(path.join(dir, 'load.json'), 'utf8')).scenario).toBe('user-read');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

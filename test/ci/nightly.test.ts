// The CI example cannot rot: the workflow parses, its matrix covers every shard once, every
// baas-conform flag it uses exists, the files it uploads are the ones `run` writes, and the example
// expected-failures list is valid and names real checks.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadChecks } from '../../suites/index.ts';
import { parseExpectedFailures } from '../../src/baseline/index.ts';
import yargs from 'yargs';
import { loadCommands } from '../../src/cli/commands/index.ts';
import { RUN_REPORT_DEFAULTS } from '../../src/options/index.ts';
import { packagePath } from '../../src/package/index.ts';

const commands = await loadCommands();

/** Option names a command declares (its yargs builder), e.g. run -> baseline, shard, report-dir ... */
function optionsOf(command: string): string[] {
  const cmd = commands.find((c) => (Array.isArray(c.command) ? c.command[0] : c.command).split(' ')[0] === command);
  if (!cmd) throw new Error(`no command ${command}`);
  return Object.keys((cmd.builder(yargs([])) as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key);
}

describe('examples/ci/nightly.yml', async () => {
  const text = await readFile(packagePath('examples/ci/nightly.yml'), 'utf8');
  const wf = parse(text);
  const job = wf.jobs.conformance;
  const steps: { name?: string; run?: string; uses?: string; with?: Record<string, unknown> }[] = job.steps;

  it('runs nightly with a matrix over every shard, each once', () => {
    expect(wf.on.schedule[0].cron).toMatch(/^\S+ \S+ \* \* \*$/);
    const shards: number[] = job.strategy.matrix.shard;
    expect(shards).toEqual(Array.from({ length: Number(wf.env.SHARDS) }, (_, i) => i + 1));
    expect(job.strategy['fail-fast']).toBe(false);
  });

  it('uses only flags the CLI has', () => {
    // `run: >` folds lines: one command per step; `run: |` keeps them: one per line.
    const commands = steps.flatMap((s) => (s.run ?? '').replace(/\n(?=\s*--)/g, ' ').split('\n')).filter((r) => r.includes('npx baas-conform'));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const cmd of commands) {
      const sub = /npx baas-conform (\w+)/.exec(cmd)![1];
      const known = optionsOf(sub);
      for (const flag of cmd.match(/--[a-z][a-z-]+/g) ?? []) expect(known, `${sub} ${flag}`).toContain(flag.slice(2));
    }
    const runCmd = commands.find((c) => c.includes('baas-conform run'))!;
    for (const flag of ['--shard', '--expected-failures', '--report-dir']) expect(runCmd).toContain(flag);
    expect(runCmd).toContain('${{ steps.baseline.outputs.args }}');
    // The baseline step hands `run` a flag it has.
    const baselineArgs = /args=(--[a-z-]+) baseline\/results\.json/.exec(steps.find((s) => s.name?.startsWith('Baseline'))!.run!)?.[1];
    expect(optionsOf('run')).toContain(baselineArgs?.slice(2));
  });

  it('uploads the HTML/JSON/JUnit report directory and publishes the JUnit file run writes', () => {
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(upload.with?.path).toBe('report/');
    expect(upload.with?.name).toBe('conformance-shard-${{ matrix.shard }}');
    // The baseline step downloads exactly the artifact name the upload step writes.
    expect(steps.find((s) => s.name?.startsWith('Baseline'))!.run).toContain('--name "conformance-shard-${{ matrix.shard }}"');
    const junit = steps.find((s) => s.uses?.includes('junit'))!;
    expect(junit.with?.report_paths).toBe(`report/${RUN_REPORT_DEFAULTS.files.junit}`);
    expect(RUN_REPORT_DEFAULTS.files.html).toBe('report.html');
  });

  it('ships a valid expected-failures example naming real checks', async () => {
    const list = parseExpectedFailures(await readFile(packagePath('examples/ci/expected-failures.yaml'), 'utf8'), 'expected-failures.yaml');
    const ids = new Set((await loadChecks()).map((c) => c.id));
    expect(list.entries.length).toBeGreaterThan(0);
    for (const e of list.entries) expect(ids.has(e.check), e.check).toBe(true);
  });
});

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputFileError, PlanError, SchemaViolationError } from '../errors/index.ts';
import { loadConfig } from '../profile/index.ts';
import { readPlan } from '../load/plan.ts';
import { readInputFile } from './index.ts';

const scratch = async (name: string, text: string) => {
  const dir = await mkdtemp(join(tmpdir(), 'bc-input-'));
  await writeFile(join(dir, name), text);
  return { dir, file: join(dir, name) };
};

describe('readInputFile', () => {
  it('names the file when it cannot be read', async () => {
    const err = await readInputFile('/nonexistent/p.json', { what: 'profile' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputFileError);
    expect((err as InputFileError).message).toBe('profile /nonexistent/p.json: cannot read the file (no such file); check the path');
    expect((err as InputFileError).code).toBe('BAAS_INPUT_INVALID');
  });

  it('names the line of a JSON or YAML syntax error', async () => {
    const json = await scratch('c.json', '{\n  "seed": 1\n  "x": 2\n}\n');
    const e1 = (await readInputFile(json.file, { what: 'config file' }).catch((e: unknown) => e)) as InputFileError;
    expect(e1.line).toBe(3);
    expect(e1.message).toMatch(/^config file .*c\.json:3: not valid JSON/);
    const yaml = await scratch('p.yaml', 'a: 1\nb: [\n');
    const e2 = (await readInputFile(yaml.file, { what: 'load plan' }).catch((e: unknown) => e)) as InputFileError;
    expect(e2.line).toBeGreaterThanOrEqual(2);
    expect(e2.message).toMatch(/invalid YAML/);
  });

  it('names the line and the JSON pointer of a bad value', async () => {
    const { file } = await scratch('c.json', '{\n  "seed": 1,\n  "check": [\n    "a",\n    7\n  ]\n}\n');
    const doc = await readInputFile(file, { what: 'config file' });
    expect(doc.lineOf('/check/1')).toBe(5);
    expect(doc.lineOf('/missing/deep')).toBe(1);
    const located = doc.locate(new SchemaViolationError('config.check[1]: must be a string', '/check/1')) as InputFileError;
    expect(located.message).toMatch(/c\.json:5 at \/check\/1: /);
  });

  it('serves config, profile and plan readers: the line and pointer reach the user', async () => {
    const cfg = await scratch('baas-conform.config.json', '{\n  "seed": 1,\n  "concurrency": "many"\n}\n');
    await expect(loadConfig({ cwd: cfg.dir })).rejects.toThrow(/baas-conform\.config\.json:3 at \/concurrency: /);
    const plan = await scratch('plan.yaml', 'scenarios:\n  - name: user-read\n    weight: "heavy"\n');
    const err = await readPlan(plan.file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlanError);
    expect((err as PlanError).line).toBeGreaterThanOrEqual(2);
  });
});

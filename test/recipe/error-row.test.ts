// Follows docs/extend-the-toolkit.md "adding an error row" on a scratch copy of the repository: the
// row alone stops the generator naming the missing driver; row, driver, reference step and mutant
// variant, regenerated, typecheck, pass against the reference, are caught by the selftest, and leave
// the tests near the change green (no pinned count to edit: the recipe is the whole job).

import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDriver, addReferenceStep, addRow, addVariant, CHECK_ID, ROW_ID, scratchCopy, VARIANT_ID } from './recipe.ts';

const exec = promisify(execFile);

/** The child's environment without this runner's own VITEST_* variables (the tests near the change run their own vitest). */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))) as NodeJS.ProcessEnv;

interface Ran {
  code: number;
  out: string;
}

async function run(dir: string, cmd: string, args: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await exec(cmd, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const log = (step: string, r: Ran) => console.log(`recipe ${step}: exit ${r.code}\n${r.out.trim().split('\n').slice(-6).join('\n')}`);

/** The tests a row touches: model, generator staleness and coverage, mutant bank and mutation coverage, reference auth, single-source scan. */
const NEAR = ['src/model/load.test.ts', 'generators/suites.test.ts', 'src/mutants/registry.test.ts', 'src/mutants/mutation-coverage.test.ts', 'src/reference/auth.test.ts', 'test/architecture/single-source.test.ts'];

describe('the "adding an error row" recipe, on a scratch copy', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await scratchCopy();
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('turns a new section 7 row into a rule with a check that passes on the reference and catches its mutant', async () => {
    // 1-2. The row alone: generating names the driver it lacks.
    await addRow(dir);
    const first = await run(dir, 'npx', ['tsx', 'generators/index.ts']);
    log('1-2 row + npm run generate', first);
    expect(first.code).not.toBe(0);
    expect(first.out).toMatch(new RegExp(`${ROW_ID}.*suites/drivers/errors.ts has no driver`));

    // 3-5. Driver, reference step, mutant variant; generate again.
    await addDriver(dir);
    await addReferenceStep(dir);
    await addVariant(dir);
    const gen = await run(dir, 'npx', ['tsx', 'generators/index.ts']);
    log('3-5 driver + reference + variant + npm run generate', gen);
    expect(gen.code).toBe(0);
    expect(await readFile(path.join(dir, 'src/generated/ids.ts'), 'utf8')).toContain(JSON.stringify(ROW_ID));
    expect(await readFile(path.join(dir, 'suites/generated/errors.ts'), 'utf8')).toContain(`id: ${JSON.stringify(CHECK_ID)}`);

    const tsc = await run(dir, 'npx', ['tsc', '--noEmit', '-p', '.']);
    log('typecheck', tsc);
    expect(tsc.code, tsc.out).toBe(0);

    // 6. The check passes on the reference, and the selftest credits it with the variant.
    const pass = await run(dir, 'node', ['bin/baas-conform.js', 'run', '--check', CHECK_ID]);
    log(`run --check ${CHECK_ID}`, pass);
    expect(pass.code, pass.out).toBe(0);
    expect(pass.out).toMatch(/1 passed/);
    const self = await run(dir, 'node', ['bin/baas-conform.js', 'selftest', '--variant', VARIANT_ID, '--workers', '0']);
    log(`selftest --variant ${VARIANT_ID}`, self);
    expect(self.code, self.out).toBe(0);
    expect(self.out).toMatch(new RegExp(`${VARIANT_ID.replace(/\./g, '\\.')}\\s+faulty\\s+${ROW_ID}\\s+${CHECK_ID.replace(/\./g, '\\.')}`));

    // No pinned count or list to edit elsewhere: the tests near the change pass as they are.
    const near = await run(dir, 'npx', ['vitest', 'run', ...NEAR]);
    log('tests near the change', near);
    expect(near.code, near.out).toBe(0);
  }, 900_000);
});

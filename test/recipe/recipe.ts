// The "adding an error row" recipe of docs/extend-the-toolkit.md as edits a test can apply to a
// scratch copy of the repository: the same row, driver, reference step and mutant variant the guide
// shows, each inserted beside its sibling row. error-row.test.ts applies them and runs what the guide
// says to run.

import { cp, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const ROW_ID = 'ERR-S2S-SCOPE-MISSING';
export const CHECK_ID = 'errors.s2s.scope-missing';
export const VARIANT_ID = 's2s.scope.not-required';

/** What a checkout holds that generating, typechecking and running need (node_modules is linked). */
const COPIED = ['spec', 'src', 'suites', 'generators', 'bin', 'reports', 'examples', 'bench', 'lint', 'test', 'package.json', 'tsconfig.json', 'vitest.config.ts'];

export async function scratchCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'baas-recipe-'));
  // test/recipe is left out: the scratch copy never runs this test inside itself.
  for (const name of COPIED) await cp(path.join(ROOT, name), path.join(dir, name), { recursive: true, filter: (src) => !src.startsWith(path.join(ROOT, 'test/recipe')) });
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Inserts `text` before (or after) the line of `file` that contains `anchor`; throws when the anchor is gone. */
async function insertAt(dir: string, file: string, anchor: string, text: string, where: 'before' | 'after'): Promise<void> {
  const p = path.join(dir, file);
  const src = await readFile(p, 'utf8');
  const at = src.indexOf(anchor);
  if (at < 0) throw new Error(`recipe: ${file} no longer contains ${JSON.stringify(anchor)}; update test/recipe/recipe.ts and the guide`);
  const line = where === 'before' ? src.lastIndexOf('\n', at) + 1 : src.indexOf('\n', at) + 1;
  await writeFile(p, src.slice(0, line) + text + src.slice(line));
}

/** Step 1 (model): the row in spec/rules/errors.yaml, after its sibling S2S rows. */
export const addRow = (dir: string) =>
  insertAt(dir, 'spec/rules/errors.yaml', '{ id: ERR-S2S-COMPANY-ID-MISSING,',
    `  - { id: ${ROW_ID}, table: s2s, status: 401, reason: ErrorMissingField, message: "Scope claim is missing", cause: "no scope claim", operations: [getUserV1, getConfig] }\n`, 'after');

/** Step 3 (check): the driver in suites/drivers/errors-s2s.ts (the S2S table's drivers), a forged token like its sibling claim rows. */
export const addDriver = (dir: string) =>
  insertAt(dir, 'suites/drivers/errors-s2s.ts', "'ERR-S2S-COMPANY-ID-MISSING': s2sForged(",
    `  '${ROW_ID}': s2sForged('${ROW_ID}', (claims) => {\n    delete claims.scope;\n  }),\n`, 'before');

/** Step 4 (reference): the claim step, last of the S2S steps, throwing the row from the model. */
export async function addReferenceStep(dir: string): Promise<void> {
  const file = 'src/reference/auth/token-steps.ts';
  const p = path.join(dir, file);
  const src = await readFile(p, 'utf8');
  const steps = "'azp', 'companyId'] as const;";
  if (!src.includes(steps)) throw new Error(`recipe: ${file} changed; update test/recipe/recipe.ts and the guide`);
  await writeFile(p, src.replace(steps, "'azp', 'companyId', 'scope'] as const;"));
  await insertAt(dir, file, "companyId: (run) => claim(run, 'company_id',", `  scope: (run) => claim(run, 'scope', '${ROW_ID}'),\n`, 'after');
}

/** Step 5 (mutant): a variant accepting what the row refuses (acceptInsteadOf, like the other claim rows). */
export const addVariant = (dir: string) =>
  insertAt(dir, 'src/mutants/variants/s2s.ts', "faulty('s2s.company-id.not-required',",
    `    faulty('${VARIANT_ID}', '${ROW_ID}', 'an S2S token without the scope claim is accepted', {\n      transform: acceptInsteadOf('${ROW_ID}', S2S_PROBES),\n    }),\n`, 'before');

// The "adding an error row" recipe of docs/extend-the-toolkit.md as edits a test can apply to a
// scratch copy of the repository: the same row, driver, reference step and mutant variant the guide
// shows, each inserted beside its sibling row. recipes.test.ts applies them and runs what the guide
// says to run.

import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { insertAt } from './scratch.ts';

export const ROW_ID = 'ERR-S2S-SCOPE-MISSING';
export const CHECK_ID = 'errors.s2s.scope-missing';
export const VARIANT_ID = 's2s.scope.not-required';

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
  if (!src.includes(steps)) throw new Error(`recipe: ${file} changed; update test/recipe/error-row.ts and the guide`);
  await writeFile(p, src.replace(steps, "'azp', 'companyId', 'scope'] as const;"));
  await insertAt(dir, file, "companyId: (run) => claim(run, 'company_id',", `  scope: (run) => claim(run, 'scope', '${ROW_ID}'),\n`, 'after');
}

/** Step 5 (mutant): a variant accepting what the row refuses (acceptInsteadOf, like the other claim rows). */
export const addVariant = (dir: string) =>
  insertAt(dir, 'src/mutants/variants/s2s.ts', "faulty('s2s.company-id.not-required',",
    `    faulty('${VARIANT_ID}', '${ROW_ID}', 'an S2S token without the scope claim is accepted', {\n      transform: acceptInsteadOf('${ROW_ID}', S2S_PROBES),\n    }),\n`, 'before');

// The selftest mode's entry: which variants run (ids, areas, the client bank), their listing, the
// run itself (runSelftest) and where its result is written. `baas-conform selftest` is these calls plus
// flags, progress lines and the exit code.

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';
import { ALL_SETS, brokenRules, buildMutantBank, describeVariant, selectVariants, variantsById, type MutantVariant, type SelftestResult } from '../mutants/index.ts';
import { writeSelftestReport } from '../report/html-selftest.ts';
import { CLIENT_PREFIX, clientModes } from './selftest-clients.ts';

export { runSelftest, areaNames, qualifySelftest, SELFTEST_BOUNDS, SELFTEST_DEFAULTS, type MutantVariant, type SelftestOptions, type SelftestProfile, type SelftestProgress, type SelftestResult } from '../mutants/index.ts';
export { selftestProfile } from './selftest-profile.ts';
export { CLIENT_AREA, CLIENT_PREFIX, CLIENT_BANK_MAX_CONCURRENCY, clientBankExit, clientModes, formatClientBank, runClientBank, type ClientBankRow } from './selftest-clients.ts';

/** The server variants to run: by area (notices for areas outside the default bank), then by id; default the bank. */
export function chooseVariants(ids: string[], areas: string[], notice: (line: string) => void = () => {}): MutantVariant[] {
  let bank: MutantVariant[];
  if (areas.length) {
    const { variants, notices } = selectVariants(areas);
    for (const n of notices) notice(n);
    bank = variants;
  } else bank = buildMutantBank();
  if (!ids.length) return bank;
  try {
    return variantsById(ids, areas.length ? bank : buildMutantBank(ALL_SETS));
  } catch (err) {
    throw new ConfigError(`--variant: ${(err as Error).message}`);
  }
}

/** `selftest --list`: one line per variant (id, kind, rules it breaks, what it does), then the client bank entries when asked. */
export async function listSelftest(variants: MutantVariant[], withClients: boolean): Promise<string[]> {
  const model = variants.length ? await loadModel() : undefined;
  const lines = variants.map((v) => `${v.id.padEnd(48)} ${v.kind.padEnd(7)} ${(brokenRules(v).join(',') || '-').padEnd(36)} ${describeVariant(v, model!)}`);
  if (withClients) for (const m of await clientModes()) lines.push(`${CLIENT_PREFIX}${m}`);
  return lines;
}

/** Writes `value` as JSON to `file` (its folder made). */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** selftest.html and selftest.json in `reportDir`. */
export async function writeSelftestReportFiles(reportDir: string, result: SelftestResult): Promise<{ html: string; json: string }> {
  return writeSelftestReport(reportDir, result, await loadModel());
}

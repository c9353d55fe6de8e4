// diffSpecs: `baas-conform spec-diff`'s one call. The classed changes between two spec/ directories,
// the checks each touches (from a package's recorded exchanges, a run on the embedded reference, or,
// static, the rules alone), and a certification package's verdicts that the changes invalidate.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadChecks } from '../../suites/index.ts';
import { ConfigError } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';
import { harRequests, reachByCheck, type ProfilePaths } from '../reach/index.ts';
import { reachOnReference } from '../reach/measure.ts';
import { formatSpecDiff, impactOf, packageImpact, readPackage, specDiff, specFiles } from '../spec-diff/index.ts';

export interface SpecDiffModeOptions {
  oldDir: string;
  newDir: string;
  /** A certification package (certify --out DIR) to judge against the changes. */
  packageDir?: string;
  /** Which operations each check reaches from the rules alone (no run on the embedded reference). */
  static?: boolean;
  /** Told before the reference run that records reach. */
  log?: (line: string) => void;
}

/** The exchanges a package records (a .har file in it, if certify put one there), as check -> operations. */
async function packageReach(dir: string): Promise<Map<string, Set<string>> | undefined> {
  const har = (await readdir(dir).catch(() => [] as string[])).find((f) => f.endsWith('.har'));
  if (!har) return undefined;
  const model = await loadModel();
  let paths: ProfilePaths = {};
  try {
    paths = (JSON.parse(await readFile(path.join(dir, 'profile.json'), 'utf8')) as { operations?: ProfilePaths }).operations ?? {};
  } catch {
    // Without the profile, operations whose path the spec does not show are not matched.
  }
  const reach = reachByCheck(model, harRequests(JSON.parse(await readFile(path.join(dir, har), 'utf8'))), paths);
  return reach.size ? reach : undefined;
}

/** The diff, its impact on the checks, and (with a package) on the package's verdicts. */
export async function diffSpecs(o: SpecDiffModeOptions) {
  for (const d of [o.oldDir, o.newDir]) if (!(await readdir(d).catch(() => undefined))) throw new ConfigError(`spec-diff: ${d} is not a readable directory; give two spec/ directories (OLD NEW)`);
  const [a, b] = await Promise.all([loadModel(o.oldDir), loadModel(o.newDir)]);
  const diff = await specDiff(o.oldDir, o.newDir, { old: a, new: b });
  const checks = await loadChecks();
  let reach = o.packageDir ? await packageReach(o.packageDir) : undefined;
  if (!reach && !o.static) {
    o.log?.('spec-diff: running the checks on the embedded reference to record which operations each reaches (--static: from the rules alone)');
    reach = await reachOnReference(await loadModel(), checks);
  }
  const impact = impactOf(diff, { old: a, new: b }, checks, reach);
  const pkg = o.packageDir
    ? packageImpact(await readPackage(o.packageDir), impact, diff.rules.filter((r) => r.change !== 'changed').map((r) => r.id), await specFiles(o.oldDir))
    : undefined;
  return { diff, impact, ...(pkg ? { package: pkg } : {}) };
}

export type SpecDiffModeResult = Awaited<ReturnType<typeof diffSpecs>>;

/** The result as the CLI prints it. */
export const renderSpecDiff = (r: SpecDiffModeResult, json = false): string => (json ? `${JSON.stringify(r, null, 2)}\n` : `${formatSpecDiff(r.diff, r.impact, r.package)}\n`);

// `baas-conform spec-diff OLD_SPEC_DIR NEW_SPEC_DIR [--package DIR]`: the classed changes between two
// spec/ directories, the checks each touches, and a certification package's verdicts (src/spec-diff).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Argv } from 'yargs';
import { loadChecks } from '../../../suites/index.ts';
import { ConfigError } from '../../errors/index.ts';
import { loadModel } from '../../model/index.ts';
import { harRequests, reachByCheck, type ProfilePaths } from '../../reach/index.ts';
import { reachOnReference } from '../../reach/measure.ts';
import { formatSpecDiff, impactOf, packageImpact, readPackage, specDiff, specFiles } from '../../spec-diff/index.ts';
import { SHARED_FLAGS } from '../flags.ts';
import type { CliIo, CommandImpl } from '../types.ts';

interface SpecDiffArgs {
  old?: string;
  new?: string;
  package?: string;
  static?: boolean;
  json?: boolean;
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

async function specDiffHandler(args: SpecDiffArgs, io: CliIo): Promise<number> {
  const oldDir = path.resolve(io.cwd, String(args.old));
  const newDir = path.resolve(io.cwd, String(args.new));
  for (const d of [oldDir, newDir]) if (!(await readdir(d).catch(() => undefined))) throw new ConfigError(`spec-diff: ${d} is not a readable directory; give two spec/ directories (OLD NEW)`);
  const [a, b] = await Promise.all([loadModel(oldDir), loadModel(newDir)]);
  const d = await specDiff(oldDir, newDir, { old: a, new: b });
  const checks = await loadChecks();
  const pkgDir = args.package ? path.resolve(io.cwd, args.package) : undefined;
  let reach = pkgDir ? await packageReach(pkgDir) : undefined;
  if (!reach && !args.static) {
    io.stderr.write('spec-diff: running the checks on the embedded reference to record which operations each reaches (--static: from the rules alone)\n');
    reach = await reachOnReference(await loadModel(), checks);
  }
  const impact = impactOf(d, { old: a, new: b }, checks, reach);
  const pkg = pkgDir
    ? packageImpact(await readPackage(pkgDir), impact, d.rules.filter((r) => r.change !== 'changed').map((r) => r.id), await specFiles(oldDir))
    : undefined;
  if (args.json) io.stdout.write(`${JSON.stringify({ diff: d, impact, ...(pkg ? { package: pkg } : {}) }, null, 2)}\n`);
  else io.stdout.write(`${formatSpecDiff(d, impact, pkg)}\n`);
  return d.breaking > 0 ? 1 : 0;
}

export const specDiffCommand: CommandImpl<SpecDiffArgs> = {
  builder: (y: Argv) =>
    y
      .positional('old', { type: 'string', describe: 'the earlier spec/ directory' })
      .positional('new', { type: 'string', describe: 'the later spec/ directory' })
      .option('package', { type: 'string', describe: 'a certification package (certify --out DIR): which of its verdicts the changes invalidate, which carry over, and the run that re-judges them' })
      .option('static', SHARED_FLAGS.static)
      .option('json', SHARED_FLAGS.json),
  run: specDiffHandler,
};

// The nightly-CI flags of `run` (and `certify`), resolved once at the edge into trusted run options:
// --baseline OLD.json (read and validated here), --expected-failures FILE, --strict.
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { comparableOf, loadExpectedFailures, loadResults } from '../baseline/index.ts';
import type { RunOptions } from '../runner/index.ts';
import { SHARED_FLAGS } from './flags.ts';

export type CiRunOptions = Pick<RunOptions, 'baseline' | 'expectedFailures' | 'strict'>;

export function ciOptions(y: Argv): Argv {
  return y
    .option('baseline', { type: 'string', describe: 'results.json of an earlier run: print what newly fails, what was fixed, what became skipped (also in every report)' })
    .option('expected-failures', { type: 'string', describe: 'YAML/JSON list of {check, reason, expires?}: listed failures do not fail the run; an entry that now passes, has expired or names no check does' })
    .option('strict', SHARED_FLAGS.strict);
}

/** The flags ciOptions adds; each is read as the builder declares it and coerced here. */
export interface CiFlagValues {
  baseline?: unknown;
  expectedFailures?: unknown;
  strict?: unknown;
}

export async function resolveCiOptions(args: CiFlagValues, cwd: string): Promise<CiRunOptions> {
  const out: CiRunOptions = {};
  if (args.baseline !== undefined) out.baseline = comparableOf(await loadResults(resolve(cwd, String(args.baseline))));
  if (args.expectedFailures !== undefined) out.expectedFailures = await loadExpectedFailures(resolve(cwd, String(args.expectedFailures)));
  if (args.strict) out.strict = true;
  return out;
}

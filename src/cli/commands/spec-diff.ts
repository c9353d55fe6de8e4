// `baas-conform spec-diff OLD_SPEC_DIR NEW_SPEC_DIR [--package DIR]`: the classed changes between two
// spec/ directories, the checks each touches, and a certification package's verdicts (src/spec-diff).
import path from 'node:path';
import type { Argv } from 'yargs';
import { diffSpecs, renderSpecDiff } from '../../api/spec-diff.ts';
import { SHARED_FLAGS } from '../flags.ts';
import type { CliIo, CommandImpl } from '../types.ts';

interface SpecDiffArgs {
  old?: string;
  new?: string;
  package?: string;
  static?: boolean;
  json?: boolean;
}

async function specDiffHandler(args: SpecDiffArgs, io: CliIo): Promise<number> {
  const result = await diffSpecs({
    oldDir: path.resolve(io.cwd, String(args.old)),
    newDir: path.resolve(io.cwd, String(args.new)),
    ...(args.package ? { packageDir: path.resolve(io.cwd, args.package) } : {}),
    static: !!args.static,
    log: (line) => void io.stderr.write(`${line}\n`),
  });
  io.stdout.write(renderSpecDiff(result, args.json));
  return result.diff.breaking > 0 ? 1 : 0;
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

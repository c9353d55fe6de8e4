// `baas-conform diff OLD.json NEW.json`: what newly fails, what was fixed and what became skipped,
// per rule and per check. Exit 1 when something newly fails (a nightly gate), 0 otherwise.
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { comparableOf, diffRuns, formatDiff, hasRegressions, loadResults } from '../../api/diff.ts';
import { SHARED_FLAGS } from '../flags.ts';
import type { CliIo, CommandImpl } from '../types.ts';

/** Target text may hold terminal control characters. */
const clean = (s: string) => s.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, ' ').replace(/\s*\n\s*/g, ' ⏎ ');

/** The flags diff's builder declares. */
interface DiffArgs {
  old?: string;
  new?: string;
  json?: boolean;
}

async function diffHandler(args: DiffArgs, io: CliIo): Promise<number> {
  const [before, after] = await Promise.all([loadResults(resolve(io.cwd, String(args.old))), loadResults(resolve(io.cwd, String(args.new)))]);
  const diff = diffRuns(comparableOf(before), comparableOf(after));
  if (args.json) io.stdout.write(`${JSON.stringify(diff, null, 2)}\n`);
  else io.stdout.write(`${formatDiff(diff, clean).join('\n')}\n`);
  return hasRegressions(diff) ? 1 : 0;
}

export const diffCommand: CommandImpl<DiffArgs> = {
  builder: (y: Argv) =>
    y
      .positional('old', { type: 'string', describe: 'results.json of the earlier run (the baseline)' })
      .positional('new', { type: 'string', describe: 'results.json of the later run' })
      .option('json', SHARED_FLAGS.json),
  run: diffHandler,
};

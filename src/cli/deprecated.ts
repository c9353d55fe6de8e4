// Old spellings a user's scripts may depend on, rewritten before yargs parses them, each with a
// notice on stderr. `--json` prints JSON on stdout in every command; where it once took a file
// (run, selftest, compare: commands without positionals, so a value after it can only be that file)
// `--json FILE` still works as `--json-out FILE`.
import type { CliIo } from './types.ts';

const JSON_FILE_COMMANDS = new Set(['run', 'selftest', 'compare']);

export function rewriteDeprecated(argv: string[], io: Pick<CliIo, 'stderr'>): string[] {
  if (!JSON_FILE_COMMANDS.has(argv[0] ?? '')) return argv;
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const inline = a.startsWith('--json=') ? a.slice('--json='.length) : undefined;
    const next = a === '--json' && i + 1 < argv.length && !argv[i + 1].startsWith('-') ? argv[i + 1] : undefined;
    const file = inline ?? next;
    if (file === undefined || file === 'true' || file === 'false') {
      out.push(a);
      continue;
    }
    io.stderr.write(`warning: --json FILE is deprecated: use --json-out ${file} (--json alone prints the JSON on stdout)\n`);
    out.push('--json-out', file);
    if (next !== undefined) i++;
  }
  return out;
}

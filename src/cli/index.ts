// CLI entry: `main(argv)` returns the exit code (bin/baas-conform.js sets process.exitCode).
// 0 all checks passed, 1 a check failed, 2 usage/configuration error, 3 target unreachable,
// 4 inconclusive (judged nothing), 130 cancelled: src/errors/exit.ts.
// Errors are one line on stderr: never a stack trace, never a secret.

import { BaasConformError, ConfigError, EXIT_CODES } from '../errors/index.ts';
import { maskSecrets } from '../profile/mask.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import type { CliIo } from './types.ts';
import { rewriteDeprecated } from './deprecated.ts';

export type { CliCommand, CliIo, CommandImpl } from './types.ts';

export const EXIT = EXIT_CODES;

function oneLine(text: string): string {
  return maskSecrets(text.replace(/\s*\n\s*/g, ' ').trim());
}

export async function main(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  const ctx: CliIo = { stdout: io.stdout ?? process.stdout, stderr: io.stderr ?? process.stderr, env: io.env ?? process.env, cwd: io.cwd ?? process.cwd() };
  // `baas-conform --version` (CI logs, install checks) answers before yargs and the command modules
  // load: they pull in the whole toolkit and are most of the CLI's start-up time.
  if (argv.length === 1 && argv[0] === '--version') {
    ctx.stdout.write(`${TOOL_VERSION}\n`);
    return EXIT.ok;
  }
  const args = rewriteDeprecated(argv, ctx);
  const [{ default: yargs }, { COMMANDS, commandNamed, loadCommand }] = await Promise.all([import('yargs'), import('./commands/index.ts')]);
  // Only the named command's implementation is loaded. A first word that names no command (a flag
  // before the command, a typo) loads every command, so yargs can still place each flag; `--help`
  // alone needs none of them (the list of commands is the registry's).
  const named = commandNamed(args[0]);
  const helpOnly = args.every((a) => a === '--help' || a === '-h');
  // yargs renders the chosen command's whole help each time a command runs, in case it is shown later;
  // only --help shows it, and wrapping it to the terminal is most of that work (0.15 s of a CLI start,
  // half of a warm in-process `main`), so the width is set only when help is asked for.
  const helpAsked = args.some((a) => a === '--help' || a === '-h');
  const loaded = new Map(await Promise.all((named ? [named] : helpOnly ? [] : COMMANDS).map(async (e) => [e.name, await loadCommand(e)] as const)));
  let exitCode: number = EXIT.ok;
  let y = yargs(args)
    .scriptName(TOOL_NAME)
    .usage(`${TOOL_NAME} <command> [options]`)
    .version(TOOL_VERSION)
    .help()
    .alias('h', 'help')
    .strict()
    .exitProcess(false)
    .wrap(helpAsked ? Math.min(110, (ctx.stdout as { columns?: number }).columns ?? 100) : null)
    .demandCommand(1, 'give a command: run (see --help)')
    .fail((msg, err) => {
      // yargs validation messages become a ConfigError (exit 2); handler errors pass through.
      throw err ?? new ConfigError(msg);
    });
  for (const entry of COMMANDS) {
    const cmd = loaded.get(entry.name);
    y = y.command(entry.command, entry.describe, (b) => (cmd ? cmd.builder(b) : b), async (parsed) => {
      exitCode = await (cmd ?? (await loadCommand(entry))).run(parsed, ctx);
    });
  }
  try {
    await y.parseAsync();
    return exitCode;
  } catch (err) {
    if (err instanceof BaasConformError) {
      ctx.stderr.write(`${TOOL_NAME}: ${oneLine(err.message)}\n`);
      return err.exitCode;
    }
    const message = err instanceof Error ? err.message : String(err);
    ctx.stderr.write(`${TOOL_NAME}: internal error: ${oneLine(message)} (set BAAS_DEBUG=1 for details)\n`);
    if (ctx.env.BAAS_DEBUG) ctx.stderr.write(`${maskSecrets((err as Error)?.stack ?? '')}\n`);
    return EXIT.failed;
  }
}

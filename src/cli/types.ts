// The shape of one CLI command. Commands are thin: parse options, call a module, return an exit code.

import type { Argv } from 'yargs';

export interface CliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

/**
 * What a command module exports: its flags and its handler. `A` is the command's own interface of the
 * camelCase values its builder declares; yargs has parsed and type-checked them (the builder is the
 * boundary), so the registry holds every command as CommandImpl<object> and hands yargs' arguments on.
 */
export interface CommandImpl<A extends object = object> {
  builder: (y: Argv) => Argv<object>;
  /** Returns the process exit code. Throw BaasConformError for usage/config problems. */
  run(args: A, io: CliIo): Promise<number>;
}

export interface CliCommand<A extends object = object> extends CommandImpl<A> {
  /** yargs command string, e.g. 'run' or 'serve [port]'. */
  command: string;
  describe: string;
}

// The shape of one CLI command. Commands are thin: parse options, call a module, return an exit code.

import type { Argv } from 'yargs';

export interface CliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

export interface CliCommand {
  /** yargs command string, e.g. 'run' or 'serve [port]'. */
  command: string | string[];
  describe: string;
  builder: (y: Argv) => Argv<any>;
  /** Returns the process exit code. Throw BaasConformError for usage/config problems. */
  run: (args: Record<string, any>, io: CliIo) => Promise<number>;
}

// The command registry. To add a command, create src/cli/commands/<name>.ts exporting a CliCommand
// and append it here; src/cli/index.ts registers every entry with yargs.
import type { CliCommand } from '../types.ts';
import { runCommand } from './run.ts';
import { serveCommand } from './serve.ts';
import { rulesCommand } from './rules.ts';
import { loadCommand } from './load.ts';
import { selftestCommand } from './selftest.ts';
import { diffCommand } from './diff.ts';
import { certifyCommand } from './certify.ts';
import { verifyCommand } from './verify.ts';
import { auditCommand } from './audit.ts';
import { replayCommand } from './replay.ts';
import { compareCommand } from './compare.ts';

export const commands: CliCommand[] = [runCommand, serveCommand, rulesCommand, loadCommand, selftestCommand, diffCommand, certifyCommand, verifyCommand, auditCommand, replayCommand, compareCommand];

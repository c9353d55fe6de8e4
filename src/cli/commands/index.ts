// The command registry: name, usage and one-line description of every command, and a loader for its
// implementation (flags and handler). Only the command being run is loaded: each implementation pulls
// in its part of the toolkit (the runner, the reference, the load generator, the mutant bank), and
// loading all of them was most of the CLI's start-up time. `--help` lists every command from this table.
// To add a command, create src/cli/commands/<name>.ts exporting a CommandImpl and add a row here.
import type { CliCommand, CommandImpl } from '../types.ts';

export interface CommandEntry {
  /** The first word of `command`: what a user types. */
  name: string;
  /** yargs command string, e.g. 'run' or 'diff <old> <new>'. */
  command: string;
  describe: string;
  load(): Promise<CommandImpl>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'run', command: 'run', describe: 'Run the conformance checks against a target (default: the embedded reference)', load: async () => (await import('./run.ts')).runCommand },
  { name: 'serve', command: 'serve', describe: 'Run the reference implementation; prints its target profile as the first stdout line', load: async () => (await import('./serve.ts')).serveCommand },
  { name: 'rules', command: 'rules', describe: 'List every rule of the spec model with its section and the checks that cover it', load: async () => (await import('./rules.ts')).rulesCommand },
  {
    name: 'load',
    command: 'load [scenario] [files..]',
    describe: 'Run a bounded load scenario (`load --help` lists them) in the closed or open model, or merge results: load merge a.json b.json ...',
    load: async () => (await import('./load.ts')).loadCommand,
  },
  { name: 'selftest', command: 'selftest', describe: 'Prove the checks catch non-conformance: run them against the reference and every mutant variant', load: async () => (await import('./selftest.ts')).selftestCommand },
  {
    name: 'diff',
    command: 'diff <old> <new>',
    describe: 'Compare two results.json files: newly failing, fixed and newly skipped rules and checks (exit 1 if anything newly fails)',
    load: async () => (await import('./diff.ts')).diffCommand,
  },
  {
    name: 'certify',
    command: 'certify',
    describe: 'Run the full suite and, only if it passes with every testable rule exercised, write a signed certification package',
    load: async () => (await import('./certify.ts')).certifyCommand,
  },
  {
    name: 'verify',
    command: 'verify <package>',
    describe: 'Verify a certification package: exit 1 naming the file that does not match (changed, missing, extra) or a wrong key',
    load: async () => (await import('./verify.ts')).verifyCommand,
  },
  {
    name: 'audit',
    command: 'audit',
    describe: 'Certify a client: serve the reference in audit mode (profile on the first stdout line), judge the calls your client makes',
    load: async () => (await import('./audit.ts')).auditCommand,
  },
  {
    name: 'replay',
    command: 'replay <file>',
    describe: 'Re-send a HAR (run --har) with fresh tokens and print what answers differently; or re-run one check of a results.json with its seed (--check)',
    load: async () => (await import('./replay.ts')).replayCommand,
  },
  {
    name: 'compare',
    command: 'compare',
    describe:
      'Run the same seeded checks against two targets and report rule verdicts that differ, and how their answers differ (where the spec specifies, where it is silent). Exit 1 if a rule verdict differs',
    load: async () => (await import('./compare.ts')).compareCommand,
  },
];

export const commandNamed = (name: string | undefined): CommandEntry | undefined => COMMANDS.find((c) => c.name === name);

/** One command, its table row and implementation together. */
export async function loadCommand(entry: CommandEntry): Promise<CliCommand> {
  return { command: entry.command, describe: entry.describe, ...(await entry.load()) };
}

/** Every command with its implementation (tests and docs that walk every command's flags). */
export function loadCommands(): Promise<CliCommand[]> {
  return Promise.all(COMMANDS.map(loadCommand));
}

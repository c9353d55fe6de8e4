// The command registry: name, usage and one-line description of every command, and a loader for its
// implementation (flags and handler). Only the command being run is loaded: each implementation pulls
// in its part of the toolkit (the runner, the reference, the load generator, the mutant bank), and
// loading all of them was most of the CLI's start-up time. `--help` lists every command from this table.
// To add a command, create src/cli/commands/<name>.ts exporting a CommandImpl and add a row here.
import type { CliCommand, CommandImpl } from '../types.ts';

export interface CommandEntry {
  /** The first word of `command`: what a user types, and the module (./<name>.ts, exporting <name>Command). */
  name: string;
  /** yargs command string, e.g. 'run' or 'diff <old> <new>'. */
  command: string;
  describe: string;
  load(): Promise<CommandImpl>;
}

/**
 * Every command: its yargs command string, its description and its module. The import stays a literal
 * per command (the build rewrites literal .ts specifiers only) and runs only when that command is chosen.
 */
const TABLE: ReadonlyArray<readonly [command: string, describe: string, module: () => Promise<Record<string, unknown>>]> = [
  ['run', 'Run the conformance checks against a target (default: the embedded reference)', () => import('./run.ts')],
  ['serve', 'Run the reference implementation; prints its target profile as the first stdout line', () => import('./serve.ts')],
  ['rules', 'List every rule of the spec model with its section and the checks that cover it', () => import('./rules.ts')],
  ['load [scenario] [files..]', 'Run a bounded load scenario (`load --help` lists them) in the closed or open model, or merge results: load merge a.json b.json ..., or coordinate shards that stream to one live verdict: load coordinate --shards N --plan plan.yaml', () => import('./load.ts')],
  ['selftest', 'Prove the checks catch non-conformance: run them against the reference and every mutant variant', () => import('./selftest.ts')],
  ['spec-diff <old> <new>', 'Class every change between two spec/ directories (rules added, removed or changed; error rows; operations, their fields and answers; breaking or not, as oasdiff does) and the checks each touches; with --package, which signed verdicts it invalidates, which carry over, and the run that re-judges them (exit 1 on a breaking change)', () => import('./spec-diff.ts')],
  ['diff <old> <new>', 'Compare two results.json files: newly failing, fixed and newly skipped rules and checks (exit 1 if anything newly fails)', () => import('./diff.ts')],
  ['history <files..>', 'Timeline of many results.json of one target: per rule and check the streak, new, fixed and regressed against the previous run and the last N, flapping rules; --classify replays each changed check by seed (deterministic, target-flaky, generator-found); writes history.json and history.html (exit 1 if the latest run regressed, 4 with fewer than two runs)', () => import('./history.ts')],
  ['certify', 'Run the full suite and, only if it passes with every testable rule exercised, write a signed certification package', () => import('./certify.ts')],
  ['verify <package>', 'Verify a certification package: exit 1 naming the file that does not match (changed, missing, extra) or a wrong key', () => import('./verify.ts')],
  ['audit', 'Certify a client: serve the reference in audit mode (profile on the first stdout line), judge the calls your client makes', () => import('./audit.ts')],
  ['replay <file>', 'Re-send a HAR (run --har) with fresh tokens and print what answers differently; or re-run one check of a results.json with its seed (--check)', () => import('./replay.ts')],
  ['doctor', 'Probe a target once, read-only (a token, one read, pci_url, control adapter, listen addresses, identity provider) and say what each missing profile field or control operation would unlock. Exit 3 unreachable, 2 token refused', () => import('./doctor.ts')],
  ['compare', 'Run the same seeded checks against two targets and report rule verdicts that differ, and how their answers differ (where the spec specifies, where it is silent). Exit 1 if a rule verdict differs', () => import('./compare.ts')],
];

export const COMMANDS: readonly CommandEntry[] = TABLE.map(([command, describe, module]) => {
  const name = command.split(' ')[0];
  return {
    name,
    command,
    describe,
    async load() {
      // spec-diff exports specDiffCommand.
      const exported = `${name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())}Command`;
      const impl = (await module())[exported];
      if (!impl) throw new Error(`src/cli/commands/${name}.ts exports no ${exported}`);
      return impl as CommandImpl;
    },
  };
});

export const commandNamed = (name: string | undefined): CommandEntry | undefined => COMMANDS.find((c) => c.name === name);

/** One command, its table row and implementation together. */
export async function loadCommand(entry: CommandEntry): Promise<CliCommand> {
  return { command: entry.command, describe: entry.describe, ...(await entry.load()) };
}

/** Every command with its implementation (tests and docs that walk every command's flags). */
export function loadCommands(): Promise<CliCommand[]> {
  return Promise.all(COMMANDS.map(loadCommand));
}

// The flags several commands share, declared once: the same type, default (none: the resolved default
// depends on the command and is applied after --config) and help text in every command that has them.
// A command picks its flags by name; test/cli/shared-flags.test.ts holds every command to this table.
import type { Argv, Options } from 'yargs';
import type { CommandImpl } from './types.ts';
import { DEFAULT_REPORT_DIR, LISTEN_DEFAULTS, SEED_BOUNDS } from '../options/index.ts';

export const SHARED_FLAGS = {
  config: { type: 'string', describe: 'Config file (JSON, the keys of `run`; default ./baas-conform.config.json when present). Flags win over it' },
  profile: { type: 'string', describe: 'Target profile JSON file (spec/schemas/profile.schema.json; default: the embedded reference). selftest also takes the built-in names full and minimal' },
  target: { type: 'string', describe: 'Target base URL (overrides the profile base_url)' },
  seed: { type: 'number', describe: `Seed (${SEED_BOUNDS.min}..${SEED_BOUNDS.max}): the same seed replays the same run; printed for replay` },
  check: { type: 'string', array: true, describe: 'Only these checks: exact id, prefix (errors.token.*) or glob; repeatable' },
  safe: { type: 'boolean', describe: 'Only checks that create nothing and move no money' },
  shard: { type: 'string', describe: 'Be part i of n (i/n, 1-based): a deterministic share of the work; merge or collect the parts' },
  concurrency: { type: 'number', describe: 'How many run at once (checks, or selftest variants)' },
  runs: { type: 'number', describe: 'fast-check runs per property' },
  static: { type: 'boolean', describe: 'Do not run the checks on the embedded reference to record what each reaches: rules --audit classifies from the model alone, spec-diff maps changes to checks from the rules alone' },
  'timeout-budget': { type: 'number', describe: 'Per-request time budget in ms (default: the section 8 recommended request timeout from spec/)' },
  'check-timeout': { type: 'number', describe: 'Per-check time limit in ms' },
  'report-dir': { type: 'string', describe: `Directory the command's reports go to (default ./${DEFAULT_REPORT_DIR}, or as the command says)` },
  strict: { type: 'boolean', describe: 'Warnings (spec recommendations not met, e.g. no Retry-After on 429) fail too' },
  json: { type: 'boolean', describe: 'Print the result as JSON on stdout (instead of the human-readable summary there)' },
  'json-out': { type: 'string', describe: 'Write the result JSON to this file' },
  har: { type: 'string', describe: 'Also write the exchanges as HAR 1.2 to this file (secrets masked; entries carry _rules and _verdict)' },
  port: { type: 'number', default: LISTEN_DEFAULTS.port, describe: 'Port to listen on: the base_url (API) of serve and audit, the coordinator of load coordinate (0: any free port)' },
  'pci-port': { type: 'number', default: LISTEN_DEFAULTS.port, describe: 'pci_url (card-tokenization environment) port (0: any free port)' },
  host: { type: 'string', default: LISTEN_DEFAULTS.host, describe: 'Interface to listen on' },
  'control-adapter': { type: 'string', describe: 'Control adapter file (YAML, spec/schemas/control-adapter.schema.json) or JS module; overrides profile.control_adapter' },
  'pci-auth': { type: 'string', choices: ['s2s', 'user', 'headers'], describe: 'Require credentials on pci_url, whose authentication the spec does not show: the S2S token, a user token, or an X-Api-Key header; given in the printed profile as operation_auth (header values masked in every record)' },
  'profile-out': { type: 'string', describe: 'Also write the profile JSON to this file (mode 0600)' },
  salts: { type: 'string', describe: "The salts of a certification package's commitments, kept outside it: certify writes them (default OUT.salts.json beside the package; keep the file private), verify --reveal reads them (or a reveal file cut from them)" },
} as const satisfies Record<string, Options>;

export type SharedFlag = keyof typeof SHARED_FLAGS;

/** Declares the named shared flags on a command's yargs. */
export function sharedFlags(y: Argv, ...names: SharedFlag[]): Argv {
  for (const name of names) y = y.option(name, { ...SHARED_FLAGS[name] } as Options);
  return y;
}

/**
 * A command whose flags are the named shared ones plus its own (name: yargs options), and its handler:
 * the flags are data, so every command declares them one way.
 */
export function flagCommand<A extends object>(shared: readonly SharedFlag[], own: Record<string, Options>, run: CommandImpl<A>['run']): CommandImpl<A> {
  return { builder: (y: Argv) => sharedFlags(y, ...shared).options(own), run };
}

// `baas-conform rules`: the rule catalogue (every rule id, its spec section, the checks covering it).
import type { Argv } from 'yargs';
import { ruleCatalogueMode, type RulesModeOptions } from '../../api/rules.ts';
import { SHARED_FLAGS } from '../flags.ts';
import type { CliIo, CommandImpl } from '../types.ts';

/** The flags rules' builder declares: the mode's options but where to read and log. */
type RulesArgs = Omit<RulesModeOptions, 'cwd' | 'log'>;

async function rulesHandler(args: RulesArgs, io: CliIo): Promise<number> {
  const { text, exitCode } = await ruleCatalogueMode({ ...args, cwd: io.cwd, log: (line) => void io.stderr.write(`${line}\n`) });
  io.stdout.write(text);
  return exitCode;
}

export const rulesCommand: CommandImpl<RulesArgs> = {
  builder: (y: Argv) => y
    .option('json', SHARED_FLAGS.json)
    .option('uncovered', { type: 'boolean', describe: 'only testable rules no check covers (exit 1 if any)' })
    .option('audit', { type: 'boolean', describe: 'the spec audit table: each rule checked exactly, in part (measured on the embedded reference: operations it governs its checks never reach, fields compared only when present, checks that skip when no webhook arrives or pass only with a warning; a column says what the minimal profile judges), loosely (why) or not at all, with the faulty variants that prove it (exit 1 on a rule no variant breaks, or too many loose)' })
    .option('static', SHARED_FLAGS.static)
    .option('selftest', { type: 'array', string: true, describe: 'with --audit: a selftest result (selftest --json-out FILE, full or minimal profile) whose caught and missed variants the audit reads; repeatable' })
    .option('needs', { type: 'boolean', describe: 'which profile field or control operation unlocks which checks (markdown table)' })
    .option('spec', { type: 'string', describe: 'model directory (default: the bundled spec/)' }),
  run: rulesHandler,
};

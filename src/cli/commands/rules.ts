// `baas-conform rules`: the rule catalogue (every rule id, its spec section, the checks covering it).
import type { Argv } from 'yargs';
import { loadModel } from '../../model/index.ts';
import { ruleCatalogue, uncoveredRules } from '../../checks/catalogue.ts';
import { loadChecks } from '../../../suites/index.ts';
import { SHARED_FLAGS } from '../flags.ts';
import type { CliIo, CommandImpl } from '../types.ts';
import { formatSpecAudit, mutationCoverage, specAudit } from '../../mutants/index.ts';
import type { RuleId } from '../../model/types.ts';
import { needsFacts, needsTable } from '../../runner/needs-table.ts';
import { clientRuleCatalogue } from '../../audit/index.ts';
/** The flags rules' builder declares. */
interface RulesArgs {
  needs?: boolean;
  spec?: string;
  audit?: boolean;
  uncovered?: boolean;
  json?: boolean;
}

async function rulesHandler(args: RulesArgs, io: CliIo): Promise<number> {
  // --needs: which profile field (or control operation) unlocks which checks (the needs table of docs/validate-a-vendor-sandbox.md).
  if (args.needs) {
    io.stdout.write(`${needsTable(await loadChecks(), needsFacts(await loadModel(args.spec)))}\n`);
    return 0;
  }
  const model = await loadModel(args.spec);
  const entries = ruleCatalogue(model, await loadChecks());
  // --audit: every rule checked exactly, loosely or not at all, with its variants; exit 1 on a problem.
  if (args.audit) {
    const judged = new Set(clientRuleCatalogue(model).filter((c) => c.judged).map((c) => c.id));
    // The client bank is compiled with the package: its faulty modes are the client rules' variants.
    const { clientVariants } = await import('../../audit/bank/index.ts');
    const audit = specAudit(model, new Map(entries.map((e) => [e.id, e.checks])), undefined, undefined, { judged, variants: clientVariants() });
    io.stdout.write(args.json ? `${JSON.stringify(audit, null, 2)}\n` : `${formatSpecAudit(audit)}\n`);
    return audit.problems.length ? 1 : 0;
  }
  const shown = args.uncovered ? uncoveredRules(entries) : entries;
  // Client rules (spec/rules/client.yaml) are judged by `baas-conform audit`, not by checks.
  const client = clientRuleCatalogue(model);
  const clientShown = args.uncovered ? client.filter((c) => c.testable && !c.judged) : client;
  if (args.json) {
    // mutants: the faulty variants that prove the rule's checks (selftest), pending ones, or why none can exist.
    const mutants = mutationCoverage(model);
    const rules = shown.map((e) => ({ ...e, mutants: mutants.get(e.id as RuleId) ?? { variants: [], pending: [] } }));
    const serverSide = rules.map((r) => ({ ...r, side: 'server' as const }));
    io.stdout.write(`${JSON.stringify({ rules: serverSide, total: entries.length, uncovered: uncoveredRules(entries).length, client_rules: clientShown }, null, 2)}\n`);
  } else {
    for (const e of shown) {
      const cover = !e.testable ? `untestable: ${e.untestable_reason}` : e.checks.length ? e.checks.join(', ') : 'UNCOVERED';
      io.stdout.write(`${e.id.padEnd(42)} §${e.section.padEnd(9)} ${cover}\n`);
    }
    io.stdout.write(`${entries.length} rules, ${uncoveredRules(entries).length} testable rules uncovered, ${entries.filter((e) => !e.testable).length} untestable\n`);
    for (const c of clientShown) {
      const cover = !c.testable ? `untestable: ${c.untestable_reason}` : c.judged ? 'judged by baas-conform audit' : 'UNCOVERED';
      io.stdout.write(`${c.id.padEnd(42)} §${c.section.padEnd(9)} side: client, ${c.level}; ${cover}\n`);
    }
    io.stdout.write(`${client.length} client rules (side: client), ${client.filter((c) => c.testable && !c.judged).length} uncovered, ${client.filter((c) => !c.testable).length} untestable\n`);
  }
  // --uncovered is a gate for CI: non-zero when any testable rule lacks a check.
  return args.uncovered && shown.length + clientShown.length > 0 ? 1 : 0;
}

export const rulesCommand: CommandImpl<RulesArgs> = {
  builder: (y: Argv) => y
    .option('json', SHARED_FLAGS.json)
    .option('uncovered', { type: 'boolean', describe: 'only testable rules no check covers (exit 1 if any)' })
    .option('audit', { type: 'boolean', describe: 'the spec audit table: each rule checked exactly, loosely (why) or not at all, with the faulty variants that prove it (exit 1 on an exact rule no variant breaks, or too many loose)' })
    .option('needs', { type: 'boolean', describe: 'which profile field or control operation unlocks which checks (markdown table)' })
    .option('spec', { type: 'string', describe: 'model directory (default: the bundled spec/)' }),
  run: rulesHandler,
};

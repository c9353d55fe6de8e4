// `baas-conform rules`: the rule catalogue (every rule id, its spec section, the checks covering it).
import type { Argv } from 'yargs';
import { loadModel } from '../../model/index.ts';
import { ruleCatalogue, uncoveredRules } from '../../checks/catalogue.ts';
import { loadChecks } from '../../../suites/index.ts';
import { SHARED_FLAGS } from '../flags.ts';
import type { CliIo, CommandImpl } from '../types.ts';
import { formatSpecAudit, mutationCoverage, selftestEvidence, specAudit, type AuditEvidence } from '../../mutants/index.ts';
import { measureOnReference } from '../../reach/measure.ts';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError } from '../../errors/index.ts';
import type { RuleId } from '../../model/types.ts';
import { needsFacts, needsTable } from '../../runner/needs-table.ts';
import { clientRuleCatalogue } from '../../audit/index.ts';
/** A selftest result file's evidence, or a ConfigError naming the file. */
async function readSelftest(file: string, cwd: string): Promise<NonNullable<AuditEvidence['selftest']>[number]> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new ConfigError(`--selftest ${file}: cannot read it (${(err as Error).message}); give the file \`baas-conform selftest --json-out FILE\` wrote`);
  }
  try {
    return selftestEvidence(JSON.parse(text), file);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`--selftest ${file}: not JSON (${(err as Error).message})`);
  }
}

/**
 * The runs the audit measures: the checks on the embedded reference under the full and the minimal
 * profile (seconds on loopback), plus any selftest results given. --static: none (the model alone).
 */
async function auditEvidence(args: RulesArgs, io: CliIo): Promise<AuditEvidence | undefined> {
  if (args.static) return undefined;
  const model = await loadModel(args.spec);
  const checks = await loadChecks();
  io.stderr.write('rules --audit: running the checks on the embedded reference (full profile, minimal profile, and the webhook checks with no webhook delivered) to measure what they reach\n');
  const full = await measureOnReference(model, checks, 'full');
  const minimal = await measureOnReference(model, checks, 'minimal');
  const silent = await measureOnReference(model, checks, 'silent-webhooks');
  const selftest = [];
  for (const f of args.selftest ?? []) selftest.push(await readSelftest(String(f), io.cwd));
  return { full, minimal, silent, ...(selftest.length ? { selftest } : {}) };
}

/** The flags rules' builder declares. */
interface RulesArgs {
  needs?: boolean;
  spec?: string;
  audit?: boolean;
  static?: boolean;
  selftest?: string[];
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
    const audit = specAudit(model, new Map(entries.map((e) => [e.id, e.checks])), undefined, undefined, { judged, variants: clientVariants() }, await auditEvidence(args, io));
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
    .option('audit', { type: 'boolean', describe: 'the spec audit table: each rule checked exactly, in part (measured on the embedded reference: operations it governs its checks never reach, fields compared only when present, not judged under the minimal profile), loosely (why) or not at all, with the faulty variants that prove it (exit 1 on a rule no variant breaks, or too many loose)' })
    .option('static', SHARED_FLAGS.static)
    .option('selftest', { type: 'array', string: true, describe: 'with --audit: a selftest result (selftest --json-out FILE, full or minimal profile) whose caught and missed variants the audit reads; repeatable' })
    .option('needs', { type: 'boolean', describe: 'which profile field or control operation unlocks which checks (markdown table)' })
    .option('spec', { type: 'string', describe: 'model directory (default: the bundled spec/)' }),
  run: rulesHandler,
};

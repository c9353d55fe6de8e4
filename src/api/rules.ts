// ruleCatalogueMode: `baas-conform rules`'s one call. The rule catalogue (every rule id, its spec
// section, the checks covering it, client rules), the needs table (--needs) and the spec audit (--audit:
// measured on the embedded reference, plus selftest results).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadChecks } from '../../suites/index.ts';
import { clientRuleCatalogue } from '../audit/catalogue.ts';
import { ruleCatalogue, uncoveredRules } from '../checks/catalogue.ts';
import { ConfigError } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';
import type { RuleId } from '../model/types.ts';
// The mutant bank and the reference (reach/measure runs the checks on it) are imported where used:
// the plain catalogue, the command run most often, needs neither, and loading them was half its start.
import type { AuditEvidence } from '../mutants/index.ts';
import { needsFacts, needsTable } from '../runner/needs-table.ts';

export interface RulesModeOptions {
  /** The needs table: which profile field or control operation unlocks which checks. */
  needs?: boolean;
  /** Model directory (default: the bundled spec/). */
  spec?: string;
  /** The spec audit table (exit 1 on a problem). */
  audit?: boolean;
  /** --audit from the model alone, no run on the embedded reference. */
  static?: boolean;
  /** --audit: selftest result files (selftest --json-out). */
  selftest?: string[];
  /** Only testable rules no check covers (exit 1 if any). */
  uncovered?: boolean;
  json?: boolean;
  cwd?: string;
  log?: (line: string) => void;
}

/** A selftest result file's evidence, or a ConfigError naming the file. */
async function readSelftest(file: string, cwd: string): Promise<NonNullable<AuditEvidence['selftest']>[number]> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new ConfigError(`--selftest ${file}: cannot read it (${(err as Error).message}); give the file \`baas-conform selftest --json-out FILE\` wrote`);
  }
  const { selftestEvidence } = await import('../mutants/index.ts');
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
async function auditEvidence(args: RulesModeOptions, cwd: string, log: (line: string) => void): Promise<AuditEvidence | undefined> {
  // Read the selftest results first: a wrong file fails before the runs, not after them.
  const selftest = [];
  for (const f of args.selftest ?? []) selftest.push(await readSelftest(String(f), cwd));
  if (args.static) return selftest.length ? { selftest } : undefined;
  const model = await loadModel(args.spec);
  const checks = await loadChecks();
  const { measureOnReference } = await import('../reach/measure.ts');
  log('rules --audit: running the checks on the embedded reference (full profile, minimal profile, and the webhook checks with no webhook delivered) to measure what they reach');
  // Three runs, each on its own fresh reference: independent, and much of each is waiting (webhooks,
  // held answers, the silent run's webhook waits), so they run at once.
  const [full, minimal, silent] = await Promise.all([
    measureOnReference(model, checks, 'full'),
    measureOnReference(model, checks, 'minimal'),
    measureOnReference(model, checks, 'silent-webhooks'),
  ]);
  return { full, minimal, silent, ...(selftest.length ? { selftest } : {}) };
}

/** The catalogue (or --needs, or --audit) as the CLI prints it, and the exit code. */
export async function ruleCatalogueMode(args: RulesModeOptions): Promise<{ text: string; exitCode: number }> {
  const cwd = args.cwd ?? process.cwd();
  const log = args.log ?? (() => {});
  const out: string[] = [];
  const done = (exitCode: number) => ({ text: out.join(''), exitCode });
  // --needs: which profile field (or control operation) unlocks which checks (the needs table of docs/validate-a-vendor-sandbox.md).
  if (args.needs) {
    out.push(`${needsTable(await loadChecks(), needsFacts(await loadModel(args.spec)))}\n`);
    return done(0);
  }
  const model = await loadModel(args.spec);
  const entries = ruleCatalogue(model, await loadChecks());
  // --audit: every rule checked exactly, loosely or not at all, with its variants; exit 1 on a problem.
  if (args.audit) {
    const judged = new Set(clientRuleCatalogue(model).filter((c) => c.judged).map((c) => c.id));
    // The client bank is compiled with the package: its faulty modes are the client rules' variants.
    const { clientVariants } = await import('../audit/bank/index.ts');
    const { formatSpecAudit, specAudit } = await import('../mutants/index.ts');
    const audit = specAudit(model, new Map(entries.map((e) => [e.id, e.checks])), undefined, undefined, { judged, variants: clientVariants() }, await auditEvidence(args, cwd, log));
    out.push(args.json ? `${JSON.stringify(audit, null, 2)}\n` : `${formatSpecAudit(audit)}\n`);
    return done(audit.problems.length ? 1 : 0);
  }
  const shown = args.uncovered ? uncoveredRules(entries) : entries;
  // Client rules (spec/rules/client.yaml) are judged by `baas-conform audit`, not by checks.
  const client = clientRuleCatalogue(model);
  const clientShown = args.uncovered ? client.filter((c) => c.testable && !c.judged) : client;
  if (args.json) {
    // mutants: the faulty variants that prove the rule's checks (selftest), pending ones, or why none can exist.
    const { mutationCoverage } = await import('../mutants/index.ts');
    const mutants = mutationCoverage(model);
    const rules = shown.map((e) => ({ ...e, mutants: mutants.get(e.id as RuleId) ?? { variants: [], pending: [] } }));
    const serverSide = rules.map((r) => ({ ...r, side: 'server' as const }));
    out.push(`${JSON.stringify({ rules: serverSide, total: entries.length, uncovered: uncoveredRules(entries).length, client_rules: clientShown }, null, 2)}\n`);
  } else {
    for (const e of shown) {
      const cover = !e.testable ? `untestable: ${e.untestable_reason}` : e.checks.length ? e.checks.join(', ') : 'UNCOVERED';
      out.push(`${e.id.padEnd(42)} §${e.section.padEnd(9)} ${cover}\n`);
    }
    out.push(`${entries.length} rules, ${uncoveredRules(entries).length} testable rules uncovered, ${entries.filter((e) => !e.testable).length} untestable\n`);
    for (const c of clientShown) {
      const cover = !c.testable ? `untestable: ${c.untestable_reason}` : c.judged ? 'judged by baas-conform audit' : 'UNCOVERED';
      out.push(`${c.id.padEnd(42)} §${c.section.padEnd(9)} side: client, ${c.level}; ${cover}\n`);
    }
    out.push(`${client.length} client rules (side: client), ${client.filter((c) => c.testable && !c.judged).length} uncovered, ${client.filter((c) => !c.testable).length} untestable\n`);
  }
  // --uncovered is a gate for CI: non-zero when any testable rule lacks a check.
  return done(args.uncovered && shown.length + clientShown.length > 0 ? 1 : 0);
}


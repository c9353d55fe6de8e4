// `baas-conform selftest`: runs every check against the unmodified reference and against every
// variant of the mutant bank (src/mutants/registry.ts); prints the kill matrix, the mutation score and
// the false positives. Exit 0 only when every faulty variant is caught by a check naming the broken
// rule and neither a benign variant nor the baseline fails any check.

import { resolve } from 'node:path';
import { areaNames, chooseVariants, CLIENT_AREA, CLIENT_BANK_MAX_CONCURRENCY, CLIENT_PREFIX, clientBankExit, formatClientBank, listSelftest, runClientBank, runSelftest, qualifySelftest, SELFTEST_DEFAULTS, selftestProfile, writeJsonFile, writeSelftestReportFiles, type ClientBankRow, type SelftestResult } from '../../api/selftest.ts';
import { resolveRunOptions, type RunFlagValues } from '../../options/index.ts';
import { formatSelftest } from '../../report/selftest-console.ts';
import type { CliIo } from '../types.ts';
import { withCancellation } from '../cancel.ts';
import { flagCommand } from '../flags.ts';

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The shared flags selftest takes plus the ones its builder adds. */
interface SelftestArgs extends RunFlagValues {
  json?: boolean;
  jsonOut?: string;
  variant?: string[];
  area?: string[];
  workers?: number;
  allChecks?: boolean;
  list?: boolean;
}

async function selftestHandler(args: SelftestArgs, io: CliIo): Promise<number> {
  // The config file's seed, concurrency, timeout budget and report directory serve selftest too; its
  // target does not (selftest's target is the reference and its variants).
  const o = await resolveRunOptions({ config: args.config, seed: args.seed, concurrency: args.concurrency, timeoutBudget: args.timeoutBudget, reportDir: args.reportDir }, io.cwd);
  // Defaults and bounds of selftest's own options, every problem at once (src/mutants/options.ts).
  const { concurrency, workers, timeoutBudgetMs, seed } = qualifySelftest({ concurrency: o.concurrency, workers: args.workers, timeoutBudgetMs: o.timeoutBudgetMs, seed: o.seed });
  const profile = await selftestProfile(args.profile, io.cwd);
  const reportDir = o.reportDirGiven ? o.reportDir : undefined;
  const jsonOut = args.jsonOut === undefined ? undefined : resolve(io.cwd, String(args.jsonOut));
  // --json prints the result on stdout; progress and the summary then go to stderr.
  const human = args.json ? io.stderr : io.stdout;
  const allIds = [...(args.variant ?? [])].map(String);
  const areas = [...(args.area ?? [])].map(String);
  // `client:<entry>` (as --list prints them) picks entries of the client bank; the rest are server variants.
  const clientIds = allIds.filter((i) => i.startsWith(CLIENT_PREFIX)).map((i) => i.slice(CLIENT_PREFIX.length));
  const ids = allIds.filter((i) => !i.startsWith(CLIENT_PREFIX));
  // The clients area (the client bank) runs with the default bank, or alone with --area clients or client ids.
  const serverAreas = areas.filter((a) => a !== CLIENT_AREA);
  const withClients = areas.includes(CLIENT_AREA) || clientIds.length > 0 || (areas.length === 0 && ids.length === 0);
  const withServer = ids.length > 0 || serverAreas.length > 0 || (areas.length === 0 && clientIds.length === 0);
  const variants = withServer ? chooseVariants(ids, serverAreas, (n) => void io.stderr.write(`selftest: ${n}\n`)) : [];
  if (args.list) {
    for (const line of await listSelftest(variants, withClients && areas.includes(CLIENT_AREA))) io.stdout.write(`${line}\n`);
    return 0;
  }
  // Where the client kill matrix goes: --json when the clients area runs alone, else beside the report.
  const clientsJson = !withServer && jsonOut ? jsonOut : reportDir ? resolve(reportDir, 'selftest-clients.json') : undefined;
  if (!withServer) return runClients(human, concurrency, clientsJson, clientIds);
  // Ctrl-C: no variant starts, the worker threads and their servers are stopped, exit 130 (CancelledError).
  // The header is printed once the Ctrl-C handler is in place: from then on a Ctrl-C cancels.
  return withCancellation(io, `running variants are stopped, nothing is scored${withClients ? '; no client audit starts, those under way end' : ''}`, async (signal) => {
    human.write(`selftest: baseline + ${variants.length} variants (${variants.filter((v) => v.kind === 'faulty').length} faulty, ${variants.filter((v) => v.kind === 'benign').length} benign), ${concurrency} at once on ${workers} worker threads${workers > 0 ? ' (the runs that mostly wait on one more)' : ''}, profile ${profile}, timeout budget ${timeoutBudgetMs} ms, seed ${seed}; ${args.allChecks ? 'every check on every variant' : 'faulty variants run the checks that can name their rule (--all-checks: every check)'}${withClients ? '; the client bank beside them' : ''}\n`);
    // The client bank mostly waits (token lifetimes, renewals, Retry-After): it runs beside the variants
    // instead of after them, on this thread (the variants run in the workers); its matrix prints after theirs.
    const bank = withClients ? startClients(concurrency, clientIds, signal) : undefined;
    let result: SelftestResult;
    try {
      result = await runSelftest({
        variants,
        concurrency,
        workers,
        timeoutBudgetMs,
        seed,
        profile,
        allChecks: !!args.allChecks,
        onProgress: (p) => {
          if (p.type !== 'variant-finished') return;
          const o = p.outcome;
          const mark = o.ok ? (o.kind === 'faulty' ? 'caught' : 'clean') : o.kind === 'faulty' ? 'NOT CAUGHT' : 'FALSE POSITIVE';
          human.write(`[${String(p.done).padStart(String(p.total).length)}/${p.total}] ${o.id} ${mark} (${secs(o.durationMs)})\n`);
        },
        signal,
      });
    } catch (err) {
      // Cancelled (or failed): the audits under way end before the error is reported, so nothing is left listening.
      await bank?.rows.catch(() => undefined);
      throw err;
    }
    human.write('\n');
    human.write(formatSelftest(result));
    if (args.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (jsonOut) {
      await writeJsonFile(jsonOut, result);
      human.write(`JSON: ${jsonOut}\n`);
    }
    if (reportDir) {
      const paths = await writeSelftestReportFiles(reportDir, result);
      human.write(`Report: ${paths.html}, ${paths.json}\n`);
    }
    const clients = bank ? await printClients(human, bank, clientsJson) : 0;
    return result.exitCode || clients;
  });
}

interface ClientsRun {
  /** The header line of the client kill matrix. */
  header: string;
  rows: Promise<ClientBankRow[]>;
}

/** Starts the client bank (`entries`, default all): at most CLIENT_BANK_MAX_CONCURRENCY audits at once. */
function startClients(concurrency: number, entries: readonly string[], signal?: AbortSignal): ClientsRun {
  const atOnce = Math.min(concurrency, CLIENT_BANK_MAX_CONCURRENCY);
  const which = entries.length ? entries.join(', ') : 'the sample client in every mode and the library clients';
  const rows = runClientBank(atOnce, undefined, entries, signal);
  rows.catch(() => undefined);
  return { header: `\nselftest clients: ${which}, each against its own audit, ${atOnce} at once\n`, rows };
}

/** The client kill matrix; exit 1 unless every client was judged as it should be, 4 if none could run. */
async function printClients(out: CliIo['stdout'], run: ClientsRun, jsonFile: string | undefined): Promise<number> {
  const rows = await run.rows;
  out.write(run.header);
  out.write(formatClientBank(rows));
  if (jsonFile) {
    await writeJsonFile(jsonFile, { clients: rows, ok: rows.every((r) => r.ok) });
    out.write(`Clients JSON: ${jsonFile}\n`);
  }
  return clientBankExit(rows);
}

/** The client bank alone (--area clients, client:<entry>): its header first, then its matrix once judged. */
async function runClients(out: CliIo['stdout'], concurrency: number, jsonFile: string | undefined, entries: readonly string[]): Promise<number> {
  const run = startClients(concurrency, entries);
  out.write(run.header);
  return printClients(out, { ...run, header: '' }, jsonFile);
}

// selftest: --profile full (control API, secrets, IdP: the default) or minimal (none of them: shows
// what only they catch), or a profile file that declares all or none of them; --report-dir gets
// selftest.html and selftest.json (only when given).
export const selftestCommand = flagCommand<SelftestArgs>(['config', 'profile', 'seed', 'concurrency', 'timeout-budget', 'report-dir', 'json', 'json-out'], {
  variant: { type: 'string', array: true, describe: 'Run only these variant ids (repeatable); the baseline always runs. client:<entry> (as --area clients --list prints them) runs those clients of the client bank' },
  area: { type: 'string', array: true, describe: `Run only the variants of these areas (repeatable): the area or topic of the rule a variant breaks, or benign: ${areaNames().join(', ')} (pending: faults no check catches yet; slow: minutes-long twins of default-bank variants; neither is in the default bank), ${CLIENT_AREA} (the client bank of src/audit/bank: the sample client in every mode and clients on real HTTP libraries, judged by the client audit; in the default run)` },
  workers: { type: 'number', describe: `Worker threads (default ${SELFTEST_DEFAULTS.workers}; 0 runs in this thread)` },
  'all-checks': { type: 'boolean', describe: 'Run every check against every variant (the full matrix); by default a faulty variant runs only the checks that can name the rule it breaks (its checks, or all for a rule every answer is held to), the baseline and benign variants every check' },
  list: { type: 'boolean', describe: 'List the variants and exit' },
}, selftestHandler);

// The `clients` area of `selftest`: the client bank (src/audit/bank: the sample partner client in
// every mode and partner applications on real HTTP libraries, each against its own audit) and its kill
// matrix. The bank is compiled with the package: an installed CLI runs it without tsx.

import { CancelledError, ConfigError, EXIT_CODES } from '../errors/index.ts';
import type { BankResult } from '../audit/bank/index.ts';

export const CLIENT_AREA = 'clients';
/** How --list names a client bank entry, and how --variant picks one. */
export const CLIENT_PREFIX = 'client:';
/** Audits (each a reference in audit mode and a sample client) at once, whatever --concurrency says: the bank's runs are CPU-bound. */
export const CLIENT_BANK_MAX_CONCURRENCY = 5;

/** One row of the kill matrix: a bank result without its full verdict (every exchange stays with the bank). */
export type ClientBankRow = Omit<BankResult, 'verdict'>;

/** The bank is loaded when the clients area runs, not when `selftest` starts (it brings the audit and undici). */
const loadBank = () => import('../audit/bank/index.ts');

export async function clientModes(): Promise<string[]> {
  return (await loadBank()).BANK_ENTRIES;
}

/**
 * Runs `entries` of the bank (default: all of them); an unknown entry is a usage error. After `signal`
 * aborts no audit starts, those under way end, and it rejects with a CancelledError.
 */
export async function runClientBank(concurrency: number, onRow?: (r: ClientBankRow) => void, entries: readonly string[] = [], signal?: AbortSignal): Promise<ClientBankRow[]> {
  const bank = await loadBank();
  const unknown = entries.filter((e) => !bank.BANK_ENTRIES.includes(e));
  if (unknown.length) throw new ConfigError(`unknown client bank entr${unknown.length === 1 ? 'y' : 'ies'} ${unknown.map((u) => `"${CLIENT_PREFIX}${u}"`).join(', ')}: see selftest --area ${CLIENT_AREA} --list`);
  // The rows only: each full verdict (every exchange) stays with the bank.
  const results = await bank.runBank(entries.length ? entries : bank.BANK_ENTRIES, concurrency, signal);
  if (signal?.aborted) throw new CancelledError('selftest cancelled: the client bank was not judged; rerun it (--area clients)');
  const rows = results.map((r): ClientBankRow => ({
    mode: r.mode, ...(r.expected ? { expected: r.expected } : {}), caught: r.caught, exitCode: r.exitCode, strictExitCode: r.strictExitCode, ok: r.ok,
    ...(r.mismatches?.length ? { mismatches: r.mismatches } : {}), ...(r.unavailable ? { unavailable: r.unavailable } : {}), ms: r.ms,
  }));
  for (const r of rows) onRow?.(r);
  return rows;
}

/** The exit code of a bank run: 1 unless every client was judged as it should be, 4 when none could run at all. */
export const clientBankExit = (rows: readonly ClientBankRow[]): number => (!rows.every((r) => r.ok) ? 1 : rows.every((r) => r.unavailable) ? EXIT_CODES.inconclusive : 0);

export function formatClientBank(rows: readonly ClientBankRow[]): string {
  const w = Math.max(6, ...rows.map((r) => r.mode.length));
  const lines = [`${'CLIENT'.padEnd(w)}  ${'KIND'.padEnd(8)}  ${'BREAKS'.padEnd(28)}  AUDIT NAMED (exit, --strict exit)`];
  for (const r of rows) {
    if (r.unavailable) {
      lines.push(`${r.mode.padEnd(w)}  ${'library'.padEnd(8)}  ${'-'.padEnd(28)}  skipped: ${r.unavailable}`);
      continue;
    }
    const lib = r.mode.startsWith('lib:');
    const kind = r.mode === 'none' ? 'sample' : lib ? 'library' : r.expected ? 'faulty' : 'benign';
    const named = r.caught.length ? r.caught.join(', ') : '-';
    const verdict = r.ok ? '' : lib ? `  NOT AS EXPECTED: ${(r.mismatches ?? []).join('; ') || 'exit code'}` : r.expected ? '  NOT CAUGHT AS ITS RULE' : '  FALSE POSITIVE';
    lines.push(`${r.mode.padEnd(w)}  ${kind.padEnd(8)}  ${(r.expected ?? '-').padEnd(28)}  ${named} (${r.exitCode}, ${r.strictExitCode})${verdict}`);
  }
  const faulty = rows.filter((r) => r.expected);
  const libs = rows.filter((r) => r.mode.startsWith('lib:') && !r.unavailable);
  const skipped = rows.filter((r) => r.unavailable);
  const clean = rows.filter((r) => !r.expected && !r.mode.startsWith('lib:'));
  lines.push(`Client bank: ${faulty.filter((r) => r.ok).length}/${faulty.length} faulty clients caught naming exactly their rule; ${clean.filter((r) => !r.ok).length} false positives (${clean.some((r) => r.mode === 'none') ? 'sample + ' : ''}${clean.filter((r) => r.mode !== 'none').length} benign); ${libs.filter((r) => r.ok).length}/${libs.length} library clients judged as expected${skipped.length ? ` (${skipped.length} not available)` : ''}; slowest audit ${(Math.max(...rows.map((r) => r.ms)) / 1000).toFixed(1)} s`);
  return `${lines.join('\n')}\n`;
}

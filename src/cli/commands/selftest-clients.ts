// The `clients` area of `selftest`: the client bank (examples/clients: the sample partner client in
// every mode, each against its own audit) and its kill matrix. The sample clients are TypeScript
// examples, loaded at run time from a source checkout; an installed package says so instead.

import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../../errors/index.ts';
import { packagePath } from '../../package/index.ts';
import type { ClientRuleId } from '../../model/types.ts';

export const CLIENT_AREA = 'clients';
/** Audits (each a reference in audit mode and a sample client) at once, whatever --concurrency says: the bank's runs are CPU-bound. */
export const CLIENT_BANK_MAX_CONCURRENCY = 5;

export interface ClientBankRow {
  mode: string;
  expected?: ClientRuleId;
  caught: ClientRuleId[];
  exitCode: number;
  strictExitCode: number;
  ok: boolean;
  ms: number;
}

interface BankModule {
  BANK_MODES: string[];
  runBank(modes: readonly string[], concurrency: number): Promise<ClientBankRow[]>;
}

async function loadBank(): Promise<BankModule> {
  const file = packagePath('examples', 'clients', 'bank.ts');
  if (!existsSync(file) || !existsSync(packagePath('src', 'index.ts'))) {
    throw new ConfigError(`--area ${CLIENT_AREA} runs the sample clients of examples/clients, TypeScript that imports the sources: run it from a source checkout (npm ci)`);
  }
  try {
    return (await import(pathToFileURL(file).href)) as BankModule;
  } catch (e) {
    // Compiled code (dist/) runs under plain node, which cannot load TypeScript.
    throw new ConfigError(`--area ${CLIENT_AREA} needs the TypeScript sources run through tsx (a source checkout without BAAS_CONFORM_DIST): ${(e as Error).message.split('\n')[0]}`);
  }
}

export async function clientModes(): Promise<string[]> {
  return (await loadBank()).BANK_MODES;
}

export async function runClientBank(concurrency: number, onRow?: (r: ClientBankRow) => void): Promise<ClientBankRow[]> {
  const bank = await loadBank();
  // The rows only: each full verdict (every exchange) stays with the bank.
  const rows = (await bank.runBank(bank.BANK_MODES, concurrency)).map((r) => ({
    mode: r.mode, ...(r.expected ? { expected: r.expected } : {}), caught: r.caught, exitCode: r.exitCode, strictExitCode: r.strictExitCode, ok: r.ok, ms: r.ms,
  }));
  for (const r of rows) onRow?.(r);
  return rows;
}

export function formatClientBank(rows: readonly ClientBankRow[]): string {
  const w = Math.max(6, ...rows.map((r) => r.mode.length));
  const lines = [`${'CLIENT'.padEnd(w)}  ${'KIND'.padEnd(8)}  ${'BREAKS'.padEnd(28)}  AUDIT NAMED (exit, --strict exit)`];
  for (const r of rows) {
    const kind = r.mode === 'none' ? 'sample' : r.expected ? 'faulty' : 'benign';
    const named = r.caught.length ? r.caught.join(', ') : '-';
    const verdict = r.ok ? '' : r.expected ? '  NOT CAUGHT AS ITS RULE' : '  FALSE POSITIVE';
    lines.push(`${r.mode.padEnd(w)}  ${kind.padEnd(8)}  ${(r.expected ?? '-').padEnd(28)}  ${named} (${r.exitCode}, ${r.strictExitCode})${verdict}`);
  }
  const faulty = rows.filter((r) => r.expected);
  lines.push(`Client bank: ${faulty.filter((r) => r.ok).length}/${faulty.length} faulty clients caught naming exactly their rule; ${rows.filter((r) => !r.expected && !r.ok).length} false positives (sample + ${rows.filter((r) => !r.expected && r.mode !== 'none').length} benign); slowest audit ${(Math.max(...rows.map((r) => r.ms)) / 1000).toFixed(1)} s`);
  return `${lines.join('\n')}\n`;
}

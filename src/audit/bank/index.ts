// The client bank: the sample client in every mode, and partner applications on real HTTP libraries,
// each against its own audit, and what the audit said. Used by the bank test (bank.test.ts),
// `selftest --area clients` and `rules --audit`; compiled with the package, so an installed CLI runs it
// without tsx. The sample client is also the example of examples/clients.

import { startAudit, type AuditVerdict } from '../index.ts';
import type { ClientRuleId } from '../../model/index.ts';
import { runApp } from './app.ts';
import { LIBRARY_CLIENTS, type Expected, type LibraryClient } from './libraries.ts';
import { BENIGN, FAULTY, type ClientMode } from './modes.ts';
import { runPartnerFlow } from './flow.ts';
import { startReceiver } from './receiver.ts';
import { missingPackages } from './transports.ts';

export { runPartnerFlow, type FlowOptions, type FlowResult } from './flow.ts';
export { startReceiver, type Receiver } from './receiver.ts';
export { BENIGN, FAULTY, isClientMode, type ClientMode } from './modes.ts';
export { LIBRARY_CLIENTS, libraryTable, type LibraryClient } from './libraries.ts';

/**
 * After the first S2S token: long enough for the default plan's two renewals (tokens live 9-10 s, the
 * buffer is 4 s: a renewal every ~6 s plus its burst of eight 429s); the flow waits for a renewal
 * under way to end.
 */
export const BANK_DURATION_MS = 22_000;
/** Modes whose rule shows within the flow itself (about 8 s) run no steady traffic after it. */
const SHORT_DURATION_MS = 0;
/** The modes that need the renewals: the backoff and token modes, the conforming client and the benign backoff. */
const LONG_MODES: readonly ClientMode[] = ['none', 'no-backoff', 'fixed-retry', 'no-refresh', 'late-refresh', 'token-per-call', 'equal-jitter'];

/** How long the bank runs `mode`. */
export const bankDuration = (mode: ClientMode): number => (LONG_MODES.includes(mode) ? BANK_DURATION_MS : SHORT_DURATION_MS);

export interface BankResult {
  /** A sample-client mode, or `lib:<id>` for a library client. */
  mode: string;
  /** The rule the mode breaks (faulty modes), none for the conforming and benign ones. */
  expected?: ClientRuleId;
  /** Rules that failed or warned. */
  caught: ClientRuleId[];
  exitCode: number;
  strictExitCode: number;
  /** Test verdict: faulty modes caught exactly their rule, the others clean; a library client every rule as expected. */
  ok: boolean;
  /** Library clients: the rules whose outcome was not the expected one ("rule: outcome, expected x"). */
  mismatches?: string[];
  ms: number;
  /** A library client whose packages are not installed (devDependencies: an installed CLI): not run, and said why. */
  unavailable?: string;
  /** The audit's verdict; none for an unavailable client. */
  verdict?: AuditVerdict;
}

const caughtOf = (v: AuditVerdict) => v.rules.filter((r) => r.outcome === 'fail' || r.outcome === 'warn').map((r) => r.id);

export async function auditMode(mode: ClientMode, durationMs = bankDuration(mode)): Promise<BankResult & { verdict: AuditVerdict }> {
  const started = Date.now();
  const receiver = await startReceiver({ strict: mode === 'webhook-strict' });
  const audit = await startAudit({ webhookUrl: receiver.url });
  try {
    await runPartnerFlow(audit.profile, { mode, durationMs });
    const verdict = await audit.verdict();
    const caught = caughtOf(verdict);
    const expected = mode in FAULTY ? FAULTY[mode as keyof typeof FAULTY] : undefined;
    const strictExitCode = (await audit.verdict({ strict: true })).exitCode;
    const ok = expected ? caught.length === 1 && caught[0] === expected && strictExitCode === 1 : caught.length === 0 && verdict.exitCode === 0;
    return { mode, ...(expected ? { expected } : {}), caught, exitCode: verdict.exitCode, strictExitCode, ok, ms: Date.now() - started, verdict };
  } finally {
    await audit.close();
    await receiver.close();
  }
}

/** The exit codes a library client's expectations imply: a failed required rule 1, a warning 1 under --strict. */
export function expectedExits(c: LibraryClient): { exitCode: number; strictExitCode: number } {
  const outcomes = Object.values(c.expected).map(([o]) => o as Expected);
  return { exitCode: outcomes.includes('fail') ? 1 : 0, strictExitCode: outcomes.includes('fail') || outcomes.includes('warn') ? 1 : 0 };
}

/** Upper bound of a library client's run: its renewals, plus a library that waits out every stall. */
const LIBRARY_LIMIT_MS = 45_000;

/** `plan`: the audit's fault plan (default DEFAULT_PLAN). */
export async function auditLibrary(client: LibraryClient, durationMs = BANK_DURATION_MS, plan?: unknown): Promise<BankResult> {
  const started = Date.now();
  const missing = await missingPackages(client.packages);
  if (missing.length) {
    const unavailable = `not available: ${missing.join(', ')} not installed (devDependencies of baas-conform; a source checkout after npm ci runs it)`;
    return { mode: `lib:${client.id}`, caught: [], exitCode: -1, strictExitCode: -1, ok: true, unavailable, ms: Date.now() - started };
  }
  const receiver = await startReceiver();
  const audit = await startAudit({ webhookUrl: receiver.url, ...(plan === undefined ? {} : { plan }) });
  try {
    await runApp(audit.profile, await client.transport(audit.profile), client.policy, { durationMs, limitMs: LIBRARY_LIMIT_MS });
    const verdict = await audit.verdict();
    const strictExitCode = (await audit.verdict({ strict: true })).exitCode;
    const mismatches = verdict.rules.flatMap((r) => {
      const want = (client.expected as Record<string, [Expected, string]>)[r.id]?.[0];
      return want !== undefined && want !== r.outcome ? [`${r.id}: ${r.outcome}, expected ${want} (${r.message})`] : [];
    });
    const exits = expectedExits(client);
    const ok = mismatches.length === 0 && verdict.exitCode === exits.exitCode && strictExitCode === exits.strictExitCode;
    return { mode: `lib:${client.id}`, caught: caughtOf(verdict), exitCode: verdict.exitCode, strictExitCode, ok, mismatches, ms: Date.now() - started, verdict };
  } finally {
    await audit.close();
    await receiver.close();
  }
}

export const BANK_MODES: ClientMode[] = ['none', ...(Object.keys(FAULTY) as ClientMode[]), ...BENIGN];
/** Every entry of the bank: the sample client's modes and the library clients (`lib:<id>`). */
export const BANK_ENTRIES: string[] = [...BANK_MODES, ...LIBRARY_CLIENTS.map((c) => `lib:${c.id}`)];

/** Faulty sample-client modes by the client rule each breaks (for `rules --audit`). */
export function clientVariants(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [mode, rule] of Object.entries(FAULTY)) out.set(rule, [...(out.get(rule) ?? []), mode]);
  return out;
}

function runEntry(entry: string): Promise<BankResult> {
  const lib = entry.startsWith('lib:') ? LIBRARY_CLIENTS.find((c) => `lib:${c.id}` === entry) : undefined;
  if (lib) return auditLibrary(lib);
  if (!(BANK_MODES as string[]).includes(entry)) throw new Error(`not a client of the bank: ${entry}`);
  return auditMode(entry as ClientMode);
}

/**
 * Library clients at once, beside the sample client's modes: an application steps every 150 ms and
 * its library mostly waits (retries, stalls), so they cost little CPU and would only queue behind
 * the CPU-bound modes.
 */
export const LIBRARY_CONCURRENCY = 10;

/**
 * Runs `entries` (default: the whole bank): the sample client's modes `concurrency` at a time, the
 * library clients beside them. After `signal` aborts no entry starts, and the unstarted ones are
 * missing from the result (holes).
 */
export async function runBank(entries: readonly string[] = BANK_ENTRIES, concurrency = 4, signal?: AbortSignal): Promise<BankResult[]> {
  const out: BankResult[] = new Array(entries.length);
  const pool = async (indexes: number[], size: number) => {
    let next = 0;
    const worker = async () => {
      // Aborted: no entry starts; those under way end within their own bounds (LIBRARY_LIMIT_MS).
      while (next < indexes.length && !signal?.aborted) {
        const i = indexes[next++];
        out[i] = await runEntry(entries[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(size, indexes.length) }, worker));
  };
  const all = entries.map((_, i) => i);
  const isLib = (i: number) => entries[i].startsWith('lib:');
  await Promise.all([pool(all.filter((i) => !isLib(i)), concurrency), pool(all.filter(isLib), LIBRARY_CONCURRENCY)]);
  return out;
}

// The client bank: the sample client in every mode against its own audit, and what the audit said.
// Used by the bank test (src/audit/bank.test.ts) and `selftest --area clients`.

import { startAudit, type AuditVerdict } from '../../src/audit/index.ts';
import type { ClientRuleId } from '../../src/model/index.ts';
import { BENIGN, FAULTY, type ClientMode } from './faults.ts';
import { runPartnerFlow } from './flow.ts';
import { startReceiver } from './receiver.ts';

/**
 * After the first S2S token: long enough to reach its refresh window (tokens live 4-5 s, the buffer is 1 s)
 * and the default plan's later token bursts, the third among them (the flow waits for it to end).
 */
export const BANK_DURATION_MS = 11_000;
/** Modes whose rule shows within the flow itself (about 5 s) run no steady traffic after it. */
const SHORT_DURATION_MS = 0;
const LONG_MODES: readonly ClientMode[] = ['none', 'no-refresh', 'late-refresh', 'token-per-call', ...BENIGN];

/** How long the bank runs `mode`: the conforming and benign clients and the token modes the whole plan. */
export const bankDuration = (mode: ClientMode): number => (LONG_MODES.includes(mode) ? BANK_DURATION_MS : SHORT_DURATION_MS);

export interface BankResult {
  mode: ClientMode;
  /** The rule the mode breaks (faulty modes), none for the conforming and benign ones. */
  expected?: ClientRuleId;
  /** Rules that failed or warned. */
  caught: ClientRuleId[];
  exitCode: number;
  strictExitCode: number;
  /** Test verdict: faulty modes caught exactly their rule, the others clean. */
  ok: boolean;
  ms: number;
  verdict: AuditVerdict;
}

export async function auditMode(mode: ClientMode, durationMs = bankDuration(mode)): Promise<BankResult> {
  const started = Date.now();
  const receiver = await startReceiver({ strict: mode === 'webhook-strict' });
  const audit = await startAudit({ webhookUrl: receiver.url });
  try {
    await runPartnerFlow(audit.profile, { mode, durationMs });
    const verdict = await audit.verdict();
    const caught = verdict.rules.filter((r) => r.outcome === 'fail' || r.outcome === 'warn').map((r) => r.id);
    const expected = mode in FAULTY ? FAULTY[mode as keyof typeof FAULTY] : undefined;
    const strictExitCode = (await audit.verdict({ strict: true })).exitCode;
    const ok = expected ? caught.length === 1 && caught[0] === expected && strictExitCode === 1 : caught.length === 0 && verdict.exitCode === 0;
    return { mode, ...(expected ? { expected } : {}), caught, exitCode: verdict.exitCode, strictExitCode, ok, ms: Date.now() - started, verdict };
  } finally {
    await audit.close();
    await receiver.close();
  }
}

export const BANK_MODES: ClientMode[] = ['none', ...(Object.keys(FAULTY) as ClientMode[]), ...BENIGN];

/** Runs `modes` with at most `concurrency` audits at a time. */
export async function runBank(modes: readonly ClientMode[] = BANK_MODES, concurrency = 4): Promise<BankResult[]> {
  const out: BankResult[] = new Array(modes.length);
  let next = 0;
  const worker = async () => {
    while (next < modes.length) {
      const i = next++;
      out[i] = await auditMode(modes[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, modes.length) }, worker));
  return out;
}

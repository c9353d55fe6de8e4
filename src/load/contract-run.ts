// The contracts of one run: which answers they read, and each contract's tally (checked, violations,
// a few samples), keyed by contract id in the result. Shards' tallies add up by id.

import type { Model } from '../model/index.ts';
import { LOAD_CONTRACTS, type CompiledContract, type ContractAnswer, type LoadContract, type LoadContractId } from './contract.ts';
import type { ContractResult } from './types.ts';

/** Violations kept per contract as examples. */
export const CONTRACT_SAMPLES = 5;

export interface ContractRun {
  /** Whether any contract reads this answer (asked at its headers). */
  wants(status: number, op: string): boolean;
  read(a: ContractAnswer): void;
  results(): Record<string, ContractResult>;
}

export function startContracts(model: Model, ids: readonly LoadContractId[]): ContractRun | undefined {
  if (!ids.length) return undefined;
  const active = [...new Set(ids)].map((id) => {
    const c: LoadContract = LOAD_CONTRACTS[id];
    const compiled: CompiledContract = c.compile(model);
    const result: ContractResult = { rule: c.rule, title: c.title, expected: compiled.expected, checked: 0, violations: 0, samples: [], ...(c.tally ? { tally: { label: c.tally.label, count: 0 } } : {}) };
    return { id, c, compiled, result };
  });
  return {
    wants: (status, op) => active.some((x) => x.c.reads(status, op)),
    read(a) {
      for (const x of active) {
        if (!x.c.reads(a.status, a.op)) continue;
        const r = x.result;
        r.checked++;
        if (r.tally && x.c.tally!.counts(a)) r.tally.count++;
        const problem = x.compiled.check(a);
        if (problem) {
          r.violations++;
          if (r.samples.length < CONTRACT_SAMPLES) r.samples.push(problem);
        }
      }
    },
    results: () => Object.fromEntries(active.map((x) => [x.id, x.result])),
  };
}

/** Several runs' contract tallies (shards) by id: counts add, samples keep the first few. */
export function mergeContracts(list: readonly Record<string, ContractResult>[]): Record<string, ContractResult> | undefined {
  if (!list.length) return undefined;
  const out: Record<string, ContractResult> = {};
  for (const byId of list) {
    for (const [id, c] of Object.entries(byId)) {
      const m = (out[id] ??= { ...c, checked: 0, violations: 0, samples: [], ...(c.tally ? { tally: { ...c.tally, count: 0 } } : {}) });
      m.checked += c.checked;
      m.violations += c.violations;
      if (m.tally && c.tally) m.tally.count += c.tally.count;
      for (const s of c.samples) if (m.samples.length < CONTRACT_SAMPLES) m.samples.push(s);
    }
  }
  return out;
}

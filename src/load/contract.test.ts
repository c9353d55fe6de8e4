// Every load contract registered in contract.ts, shown both ways on real loopback servers: on the
// reference it is judged (answers read) and holds; on its own misbehaving target (BREAKS, one entry per
// contract: a new contract fails tsc here until it has one) it fails, the verdict names it, and the
// console and HTML reports show it. The result validates against the load result schema either way.

import { beforeAll, describe, expect, it } from 'vitest';
import { resolveProfile } from '../profile/index.ts';
import { startReference } from '../reference/index.ts';
import { LOAD_CONTRACTS, type LoadContractId } from './contract.ts';
import { buildLoadHtml } from './html.ts';
import { resultValidator } from './merge.ts';
import { renderResult } from './report.ts';
import { runLoad, type LoadOptions } from './run.ts';
import { SCENARIOS } from './scenarios.ts';
import { stallTarget, type StallOptions } from './testing.ts';
import type { LoadResult } from './types.ts';

/** A 429 with the section 7 body but another category: what a target under load may send. */
const wrongCategory429 = JSON.stringify({ error_reason: 'ErrorRateLimited', error_message: 'slow down', error_category: { category: 'CategoryInternalFailure', http_status_code: 429 } });

/** For each contract, a target that breaks it (the first request, the setup's token, is answered well). */
const BREAKS = {
  '429-shape': { fault: (n) => (n > 1 ? { status: 429, body: wrongCategory429 } : undefined) },
} satisfies Record<LoadContractId, Omit<StallOptions, 'delayFor'>>;

const IDS = Object.keys(LOAD_CONTRACTS) as LoadContractId[];
/** A short run: enough answers to judge, bounded in count and time; the recovery probe gives up fast on a broken target. */
const SHORT: Pick<LoadOptions, 'durationSec' | 'connections' | 'maxRequests' | 'recovery'> = { durationSec: 1, connections: 4, maxRequests: 300, recovery: { maxAttempts: 3, maxMs: 3000 } };

function scenarioOf(id: LoadContractId): string {
  const s = SCENARIOS.find((x) => x.contracts.includes(id));
  if (!s) throw new Error(`load contract ${id} is on no scenario: list it in a scenario's contracts (scenarios.ts)`);
  return s.id;
}

const WINDOW_S = 3600;

describe('load contracts', () => {
  let validate: Awaited<ReturnType<typeof resultValidator>>;
  beforeAll(async () => {
    validate = await resultValidator();
  });

  const shown = (r: LoadResult, id: LoadContractId) => {
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    expect(renderResult(r)).toMatch(new RegExp(`contract\\s+${id} \\(${LOAD_CONTRACTS[id].rule}\\)`));
    expect(buildLoadHtml(r)).toContain(`Contract ${id}`);
  };

  it.each(IDS)('%s is judged and holds on the reference', async (id) => {
    // A small limit so the token endpoint limits at once, without throughput: 3 a window of an hour, one
    // taken by setup, and the burst's 4 connections send 4 at once (30 in a 1.5 s window needed more
    // sends than a loaded machine made). A reference of its own per contract, on the real clock: a
    // contract may compare what the target stamps with the time now.
    const ref = await startReference({ rateLimit: { perIp: 100_000, perClient: 3, windowMs: WINDOW_S * 1000 } });
    try {
      const r = await runLoad({ scenario: scenarioOf(id), profile: resolveProfile(ref.profile, { env: {} }), ...SHORT });
      const k = r.contracts?.[id];
      expect(k, 'the contract has a tally').toBeDefined();
      expect(k!.checked, `${id} read no answer on the reference`).toBeGreaterThan(0);
      expect(k!.violations, k!.samples.join('; ')).toBe(0);
      expect(r.verdict.reasons.filter((x) => x.includes(`contract ${id} `))).toEqual([]);
      shown(r, id);
    } finally {
      await ref.close();
    }
  });

  it.each(IDS)('%s fails on a target breaking it, and the verdict names it', async (id) => {
    const t = await stallTarget({ delayFor: () => 0, ...BREAKS[id] });
    try {
      const r = await runLoad({ scenario: scenarioOf(id), profile: t.profile, ...SHORT });
      const k = r.contracts![id];
      expect(k.violations).toBeGreaterThan(0);
      expect(k.samples.length).toBeGreaterThan(0);
      expect(r.verdict.pass).toBe(false);
      expect(r.verdict.reasons.some((x) => x.includes(`contract ${id} (${LOAD_CONTRACTS[id].rule}`))).toBe(true);
      shown(r, id);
    } finally {
      await t.close();
    }
  });
});

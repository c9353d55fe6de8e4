// The spec audit table (`baas-conform rules --audit`): its totals are the rows', every non-exact rule
// says why, every exact rule is proved by a faulty variant on the real bank, and the table fails when
// an exact rule loses its variants or when more rules are loose than the budget allows.
import { describe, expect, it } from 'vitest';
import { main } from '../cli/index.ts';
import { captureIo } from '../cli/capture.ts';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { inArea, MUTANT_BANK, PENDING_BANK } from './registry.ts';
import { LOOSE_BUDGET, specAudit } from './spec-audit.ts';
import { FAULTY } from '../audit/bank/index.ts';

/** Every testable rule covered by one check: the coverage of checks is rules.test.ts's concern. */
function anyCheck(model: Model): Map<string, string[]> {
  return new Map(model.rules.map((r) => [r.id, [`check.of.${r.id}`]]));
}

describe('spec audit table', () => {
  it('passes on the real bank, with totals counted from its rows and a reason on every non-exact rule', async () => {
    const model = await loadModel();
    const audit = specAudit(model, anyCheck(model));
    expect(audit.problems).toEqual([]);
    const { rows, totals } = audit;
    expect(totals.items).toBe(model.rules.length);
    expect(totals.exact + totals.partial + totals.loose + totals.untestable).toBe(totals.items);
    // Unmeasured, partial is only the static part: a reading that compares a field only when present.
    for (const r of rows.filter((x) => x.strength === 'partial')) expect(r.partial!.every((p) => p.startsWith('compared only when present')), r.id).toBe(true);
    expect(totals.loose).toBeLessThanOrEqual(LOOSE_BUDGET);
    expect(totals.exact_with_variant).toBe(rows.filter((r) => r.strength === 'exact' && r.variants.length > 0).length);
    expect(totals.measured).toBe(false);
    for (const r of rows.filter((x) => x.strength !== 'exact')) expect(r.why, r.id).toBeTruthy();
    expect(rows.filter((r) => r.strength === 'untestable').map((r) => r.id)).toEqual(model.rules.filter((r) => !r.testable).map((r) => r.id));
  });

  it('fails when an exactly-checked rule has no faulty variant breaking it', async () => {
    const model = await loadModel();
    const withoutToken = MUTANT_BANK.filter((v) => !inArea(v, 'token'));
    const audit = specAudit(model, anyCheck(model), withoutToken, PENDING_BANK);
    expect(audit.rows.find((r) => r.id === 'ERR-TOKEN-GRANT-TYPE-INVALID')!.strength).toBe('exact');
    expect(audit.problems.some((p) => p.startsWith('ERR-TOKEN-GRANT-TYPE-INVALID: checked exactly but no faulty variant'))).toBe(true);
    expect(audit.totals.exact_with_variant).toBeLessThan(audit.totals.exact);
  });

  it('fails when a testable rule has no check, and when more rules are loose than the budget', async () => {
    const model = await loadModel();
    const noChecks = specAudit(model, new Map());
    expect(noChecks.problems.filter((p) => p.includes('no check covers it'))).toHaveLength(model.rules.filter((r) => r.testable).length);
    const exact = model.rules.filter((r) => r.testable && !r.loose);
    const looser: Model = { ...model, rules: model.rules.map((r) => (exact.slice(0, LOOSE_BUDGET + 1).includes(r) ? { ...r, loose: 'made loose by the test' } : r)) };
    const audit = specAudit(looser, anyCheck(looser));
    expect(audit.totals.loose).toBeGreaterThan(LOOSE_BUDGET);
    expect(audit.problems.some((p) => p.includes(`more than ${LOOSE_BUDGET}`))).toBe(true);
  });

  it('counts the client rules with the faulty sample clients breaking them, and fails on one no faulty client breaks', async () => {
    const model = await loadModel();
    const judged = new Set(model.clientRules.filter((r) => r.testable).map((r) => r.id));
    const variants = new Map<string, string[]>();
    for (const [mode, rule] of Object.entries(FAULTY)) variants.set(rule, [...(variants.get(rule) ?? []), mode]);
    const audit = specAudit(model, anyCheck(model), MUTANT_BANK, PENDING_BANK, { judged, variants });
    expect(audit.problems).toEqual([]);
    expect(audit.totals.items).toBe(model.rules.length + model.clientRules.length);
    variants.delete('CLIENT-CHAIN-STRING');
    const without = specAudit(model, anyCheck(model), MUTANT_BANK, PENDING_BANK, { judged, variants });
    expect(without.problems.some((p) => p.startsWith('CLIENT-CHAIN-STRING: checked exactly but no faulty variant'))).toBe(true);
  });

  it('is printed by `rules --audit`, with the totals line, and as JSON, server and client rules alike', async () => {
    const model = await loadModel();
    const json = captureIo();
    expect(await main(['rules', '--audit', '--static', '--json'], json.io)).toBe(0);
    const { totals, rows } = JSON.parse(json.out());
    expect(totals.items).toBe(model.rules.length + model.clientRules.length);
    expect(rows.filter((r: { side: string }) => r.side === 'client')).toHaveLength(model.clientRules.length);
    const text = captureIo();
    expect(await main(['rules', '--audit', '--static'], text.io)).toBe(0);
    expect(text.out()).toContain(`${totals.items} items: ${totals.exact} checked exactly (${totals.exact_with_variant} with a faulty variant), ${totals.partial} in part, ${totals.loose} loosely, ${totals.untestable} not checked; not measured (--static)`);
  });
});

// cards.actions.take-effect (STATE-CARD-ACTION-EFFECT) on the reference and its card variants: each
// no-op action fails naming the rule, each freedom the readings leave passes (with the reading's warning
// where one is recorded), and a target without a block path judges nothing.
import { describe, expect, it } from 'vitest';
import { runOneOnVariant } from './variant-run.testkit.ts';
import type { TargetProfile } from '../../src/profile/types.ts';

const CHECK = 'cards.actions.take-effect';
const RULE = 'STATE-CARD-ACTION-EFFECT';

const run = (variantId: string | undefined, check = CHECK, edit?: (p: TargetProfile) => TargetProfile) => runOneOnVariant(check, variantId, edit);

describe.concurrent('card actions take effect, read back through the card list', () => {
  for (const id of ['cards.block.noop', 'cards.unblock.noop', 'cards.activate.noop', 'cards.close.leaves-usable']) {
    it(`${id}: fails naming ${RULE}`, async () => {
      const r = await run(id);
      expect(r.verdict, JSON.stringify(r.reason)).toBe('fail');
      expect(r.failure?.rules).toEqual([RULE]);
      expect(r.failure?.message).toMatch(/did not take effect/);
    }, 60_000);
  }

  for (const id of [undefined, 'benign.cards.status-spellings', 'benign.cards.created-inactive', 'benign.cards.effects-deferred', 'benign.cards.closed-unlisted', 'benign.actions.204']) {
    it(`${id ?? 'the reference'}: passes with no warning`, async () => {
      const r = await run(id);
      expect(r.verdict, JSON.stringify(r.failure ?? r.reason)).toBe('pass');
      expect(r.warnings).toBeUndefined();
    }, 60_000);
  }

  for (const [id, reading] of [['benign.cards.unblock-inactive', 'unblock-other-status'], ['benign.cards.unblock-refused', 'unblock-refused']] as const) {
    it(`${id}: passes with the ${reading} warning`, async () => {
      const r = await run(id);
      expect(r.verdict, JSON.stringify(r.failure ?? r.reason)).toBe('pass');
      expect(r.warnings?.some((w) => w.includes(`reading of ${RULE}`))).toBe(true);
    }, 60_000);
  }

  it('a close that shows in the list 1 s late is still judged terminal after it shows (cards.close.terminal)', async () => {
    const r = await run('benign.cards.effects-deferred', 'cards.close.terminal');
    expect(r.verdict, JSON.stringify(r.failure ?? r.reason)).toBe('pass');
  }, 60_000);

  it('without a block path in the profile the check judges nothing (skipped, not passed)', async () => {
    const r = await run(undefined, CHECK, (p) => {
      const { blockCard: _b, ...operations } = p.operations ?? {};
      return { ...p, operations };
    });
    expect(r.verdict).toBe('skip');
  }, 60_000);
});

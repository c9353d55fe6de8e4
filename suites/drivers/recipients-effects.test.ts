// transfers.recipients.delete-effect (ENDPOINT-RECIPIENT-DELETE-EFFECT) on the reference and its
// variants: a delete that keeps the recipient readable fails naming the rule, a 204 delete passes, and a
// target without a recipient read path judges nothing.
import { describe, expect, it } from 'vitest';
import { runOneOnVariant } from './variant-run.testkit.ts';
import type { TargetProfile } from '../../src/profile/types.ts';

const CHECK = 'transfers.recipients.delete-effect';

const run = (variantId: string | undefined, edit?: (p: TargetProfile) => TargetProfile) => runOneOnVariant(CHECK, variantId, edit);

describe.concurrent('a recipient delete takes effect, read back by its id', () => {
  it('recipients.delete.noop: fails naming ENDPOINT-RECIPIENT-DELETE-EFFECT', async () => {
    const r = await run('recipients.delete.noop');
    expect(r.verdict, JSON.stringify(r.reason)).toBe('fail');
    expect(r.failure?.rules).toEqual(['ENDPOINT-RECIPIENT-DELETE-EFFECT']);
    expect(r.failure?.message).toMatch(/did not take effect/);
  }, 60_000);

  for (const id of [undefined, 'benign.recipients.delete-204']) {
    it(`${id ?? 'the reference'}: passes`, async () => {
      const r = await run(id);
      expect(r.verdict, JSON.stringify(r.failure ?? r.reason)).toBe('pass');
    }, 60_000);
  }

  it('without profile.operations.getRecipient the check judges nothing (skipped, not passed)', async () => {
    const r = await run(undefined, (p) => {
      const { getRecipient: _g, ...operations } = p.operations ?? {};
      return { ...p, operations };
    });
    expect(r.verdict).toBe('skip');
  }, 60_000);
});

// Request bodies of row operations that need earlier steps (suites/kit/rows.ts `stepBodies`): the card
// transfer estimate needs the payment_details.id of a Card recipient (section 4 rule 3, steps 1-2). Built
// once per target for the shared user of client 0 (the user every row check acts as) and shared by the
// row checks, so the estimate joins the rows at two requests per run. Left out (logged) where the
// steps cannot run: no card-tokenization environment, --safe (the steps create), or a step refused.

import type { CheckContext } from '../../src/checks/types.ts';
import { requestBody, sharedUser, type FixtureIds, type StepBodies } from '../kit/index.ts';
import { createCard } from './cards-read.ts';
import { pushToCardRecipient } from './transfers.ts';

const cache = new Map<string, Promise<StepBodies>>();

export function rowStepBodies(ctx: CheckContext): Promise<StepBodies> {
  if (ctx.safeMode || !ctx.profile.pci_url) return Promise.resolve({});
  const key = `${ctx.profile.base_url}|${ctx.profile.pci_url}`;
  let p = cache.get(key);
  if (!p) {
    p = (async (): Promise<StepBodies> => {
      try {
        const r = await pushToCardRecipient(ctx, await sharedUser(ctx));
        const from = { ...(r.recipientId ? { recipient_id: r.recipientId } : {}), payment_details_id: r.paymentDetailsId };
        return { estimateCardTransfer: requestBody(ctx, 'estimateCardTransfer', { amount: '10.00', currency: 'EUR' }, from) };
      } catch (err) {
        // Not cached: the next row check tries the steps again.
        cache.delete(key);
        ctx.log(`the card transfer estimate is left out of the rows: its steps (tokenize, Card recipient) failed: ${err instanceof Error ? err.message : String(err)}`);
        return {};
      }
    })();
    cache.set(key, p);
  }
  return p;
}

const idCache = new Map<string, Promise<FixtureIds>>();

/**
 * Real ids the row sweeps (suites/kit/rows.ts sweepOperations) put in path parameters: one card of the
 * shared user of client 0, created once per target and shared by every row check, so a card action with
 * a faulty credential reaches a card that exists (a made-up id could be refused as not found first).
 * None under --safe (creating the card is a write) or when creating it is refused: made-up ids then.
 */
export function rowFixtureIds(ctx: CheckContext): Promise<FixtureIds> {
  if (ctx.safeMode) return Promise.resolve({});
  const key = ctx.profile.base_url;
  let p = idCache.get(key);
  if (!p) {
    p = (async (): Promise<FixtureIds> => {
      try {
        return { card_id: (await createCard(ctx, await sharedUser(ctx), 'conform-rows')).id };
      } catch (err) {
        idCache.delete(key);
        ctx.log(`the row sweeps use made-up card ids: creating the shared card failed: ${err instanceof Error ? err.message : String(err)}`);
        return {};
      }
    })();
    idCache.set(key, p);
  }
  return p;
}

// Request bodies of row operations that need earlier steps (suites/kit/rows.ts `stepBodies`): the card
// transfer estimate needs the payment_details.id of a Card recipient (section 4 rule 3, steps 1-2). Built
// once per target for the shared user of client 0 (the user every row check acts as) and shared by the
// row checks, so the estimate joins the rows at two requests per run. Left out (logged) where the
// steps cannot run: no card-tokenization environment, --safe (the steps create), or a step refused.

import type { CheckContext } from '../../src/checks/types.ts';
import { requestBody, sharedUser, type StepBodies } from '../kit/index.ts';
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

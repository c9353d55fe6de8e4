// Concurrent recipient creation (section 4 rule 3, step 2): every Card recipient a user creates
// identifies a destination by its payment_details.id, so creations sent at the same time must all
// survive. A server whose creation is read-modify-write on the user's recipient list keeps only one of
// the concurrent ones, and a Push to Card to the others then fails.
//
// "Use each" is the Push to Card estimate (step 3, a shown operation that moves no money), never the
// recipients list: its path, parameters, order and pagination are not shown (section 4 "Paths of the
// following operations: not shown"), so the check cannot tell a lost recipient from one on a later page.

import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import { check, createUser, is2xx, field } from '../kit/index.ts';
import { createCardRecipient, estimateTransfer, tokenize } from '../drivers/transfers.ts';
import type { RuleId } from '../../src/model/types.ts';

/** Bounds: creations sent at once, and batches; 2 x 6 creations, 12 estimates, 12 tokenizations. */
export const CONCURRENT_RECIPIENTS = { batch: 6, batches: 2 } as const;

const RULES: RuleId[] = ['FLOW-PUSH-TO-CARD'];

export async function concurrentRecipientsRun(ctx: CheckContext): Promise<void> {
  const user = await createUser(ctx);
  const created: { recipientId?: string; paymentDetailsId: string }[] = [];
  for (let b = 0; b < CONCURRENT_RECIPIENTS.batches; b++) {
    // Tokenize first, so the creations themselves leave together and overlap on the server.
    const tokens = await Promise.all(Array.from({ length: CONCURRENT_RECIPIENTS.batch }, () => tokenize(ctx)));
    const batch = await Promise.all(tokens.map(({ token }) => createCardRecipient(ctx, user, token)));
    created.push(...batch.map(({ recipientId, paymentDetailsId }) => ({ recipientId, paymentDetailsId })));
  }
  const ids = created.map((c) => c.paymentDetailsId);
  check(new Set(ids).size === ids.length, `${ids.length} Card recipients created (${CONCURRENT_RECIPIENTS.batch} at a time) answered only ${new Set(ids).size} distinct payment_details.id: ${JSON.stringify(ids)}`, { rules: RULES });
  const lost: string[] = [];
  let firstRefusal: HttpResponse | undefined;
  for (const c of created) {
    const est = await estimateTransfer(ctx, user, c);
    const estimationId = is2xx(est) ? field(est.json, 'estimation_id') : undefined;
    if (estimationId !== undefined && estimationId !== null) continue;
    firstRefusal ??= est;
    lost.push(`${c.paymentDetailsId} (HTTP ${est.status} ${est.text.slice(0, 120)})`);
  }
  check(lost.length === 0, `of ${created.length} Card recipients created ${CONCURRENT_RECIPIENTS.batch} at a time, ${lost.length} cannot be used: a transfer estimate to their payment_details.id is refused: ${lost.slice(0, 4).join('; ')}${lost.length > 4 ? '; …' : ''}`, { rules: RULES, response: firstRefusal });
}

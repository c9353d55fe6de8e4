// Section 4 rule 3, Push to Card end to end: tokenize the card in the card-tokenization environment,
// create a Card recipient with the card_token, estimate, execute, and receive the activity webhook
// (section 6 rule 1) carrying the activity_id.

import { expectSchema } from '../../src/checks/assert.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import { type TestUser, asUser, check, createUser, expect2xx, is2xx } from './fixtures.ts';

/** Test card details (a well-known test PAN); the payload shape is not shown in the spec. */
export function testCard() {
  return { card_number: '4111111111111111', expiry_month: '12', expiry_year: '2030', cvv: '123', holder_name: 'Ada Lovelace' };
}

export async function tokenize(ctx: CheckContext): Promise<{ token: string; res: HttpResponse }> {
  if (!ctx.profile.pci_url) ctx.skip('needs the card-tokenization environment: profile.pci_url is not set');
  const res = await ctx.http.send({ op: 'tokenizeCard', server: 'pci', body: testCard() });
  expect2xx(res, 'POST {pci_url}/b2b/cards/oct');
  const token = res.json?.card_token;
  check(token !== undefined && token !== null && token !== '', `card tokenization answered no card_token: ${res.text.slice(0, 200)}`, { response: res });
  return { token: String(token), res };
}

function paymentDetailsOf(json: any): any[] {
  const pd = json?.payment_details;
  return Array.isArray(pd) ? pd : pd && typeof pd === 'object' ? [pd] : [];
}

/** Steps 1-2: tokenize and create the Card recipient; returns the recipient id and payment_details.id. */
export async function pushToCardRecipient(ctx: CheckContext, user: TestUser, extra: Record<string, unknown> = {}) {
  const { token } = await tokenize(ctx);
  const res = await asUser(ctx, user, {
    op: 'createRecipientV2',
    body: { type: 'Card', card_token: token, first_name: 'Ada', last_name: 'Lovelace', is_business: false, ...extra },
  });
  expect2xx(res, 'POST /api/v2/recipients (type Card with the card_token)');
  const details = paymentDetailsOf(res.json);
  const card = details.find((d) => d?.type === 'Card') ?? details[0];
  check(card && card.id !== undefined && card.id !== null, `the Card recipient has no payment_details.id: ${res.text.slice(0, 300)}`, { response: res });
  return { res, recipientId: res.json?.id as string | undefined, paymentDetailsId: String(card.id) };
}

/**
 * A recipient that also carries crypto details: the section 2 Recipient field recipient_address sent
 * on create (the spec shows no other way to create crypto details). Undefined when the target refuses it.
 */
export async function cryptoRecipient(ctx: CheckContext, user: TestUser, address: string): Promise<HttpResponse | undefined> {
  const { token } = await tokenize(ctx);
  const res = await asUser(ctx, user, {
    op: 'createRecipientV2',
    body: { type: 'Card', card_token: token, first_name: 'Ada', last_name: 'Lovelace', is_business: false, recipient_address: address },
  });
  return is2xx(res) ? res : undefined;
}

const ACTIVITY_WEBHOOK = '/v2/webhooks/activities';
const WEBHOOK_WAIT_MS = 20_000;

export const drivers: Drivers = {
  'FLOW-PUSH-TO-CARD': {
    title: 'Push to Card: tokenize -> Card recipient (payment_details.id) -> estimate (estimation_id) -> execute (activity_id) -> activity webhook on /v2/webhooks/activities carrying the activity_id',
    safe: false,
    needs: ['pci', 'webhooks'],
    alsoCovers: ['EVENT-CARD-TRANSFER-ACTIVITY'],
    async run(ctx) {
      const user = await createUser(ctx);
      const { res: recipient, recipientId, paymentDetailsId } = await pushToCardRecipient(ctx, user);
      expectSchema(recipient, 'createRecipientV2', undefined, ['FLOW-PUSH-TO-CARD']);
      const est = await asUser(ctx, user, {
        op: 'estimateCardTransfer',
        body: { ...(recipientId ? { recipient_id: recipientId } : {}), payment_details_id: paymentDetailsId, amount: '10.00', currency: 'EUR' },
      });
      expect2xx(est, 'POST /api/v1/cards/transfer/estimate');
      expectSchema(est, 'estimateCardTransfer', undefined, ['FLOW-PUSH-TO-CARD']);
      const exec = await asUser(ctx, user, { op: 'executeCardTransfer', body: { estimation_id: est.json.estimation_id } });
      expect2xx(exec, 'POST /api/v1/cards/transfer with the estimation_id');
      expectSchema(exec, 'executeCardTransfer', undefined, ['FLOW-PUSH-TO-CARD']);
      const activityId = exec.json.activity_id;
      if (ctx.profile.control_url) {
        // Settle now when the target offers it; a target that settles on its own may refuse.
        const done = await ctx.http.send({ server: 'control', method: 'POST', path: `/activities/${encodeURIComponent(String(activityId))}/complete`, body: {} });
        if (!is2xx(done)) ctx.log(`control /activities/{id}/complete answered HTTP ${done.status}; waiting for the target to settle on its own`);
      }
      const hook = await ctx.services.webhooks!.waitFor(ACTIVITY_WEBHOOK, (b) => JSON.stringify(b ?? {}).includes(String(activityId)), WEBHOOK_WAIT_MS);
      check(hook, `no activity webhook carrying activity_id ${activityId} arrived on ${ACTIVITY_WEBHOOK} within ${WEBHOOK_WAIT_MS / 1000} s (section 6 rule 1)`, { rules: ['EVENT-CARD-TRANSFER-ACTIVITY'] });
      const b = hook.body;
      check(b?.activity_id === activityId || b?.id === activityId || b?.data?.activity_id === activityId || b?.data?.id === activityId,
        `the activity webhook mentions ${activityId} but not as activity_id/id: ${JSON.stringify(b).slice(0, 300)}`, { rules: ['EVENT-CARD-TRANSFER-ACTIVITY'] });
    },
  },
};

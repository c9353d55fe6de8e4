// Push to Card (section 4 rule 3, section 6), withdrawals and cards.


import { field, is2xx, isObject, items, onOk } from '../transforms.ts';
import { benign, faults, faulty, op, type VariantSpec } from '../variant.ts';

/** Other spellings of the reference's card statuses (benign.cards.status-spellings). */
const SPELLINGS: Record<string, string> = { Active: 'ACTIVE', Inactive: 'inactive', Blocked: 'Frozen', Closed: 'TERMINATED' };

/** Builds the transfers variants (stateful transforms get fresh state on every call). */
export function transfersVariants(): VariantSpec[] {
  return [
    faulty('p2c.payment-details.no-id', 'FLOW-PUSH-TO-CARD', 'the Card recipient payment_details carry no id', {
      transform: onOk(['createRecipientV2'], (b) => {
        const pd = field(b, 'payment_details');
        for (const p of Array.isArray(pd) ? pd : [pd]) if (isObject(p)) delete p.id;
      }),
    }),
    faulty('p2c.execute.no-activity-id', 'FLOW-PUSH-TO-CARD', 'executing a card transfer returns no activity_id', {
      transform: onOk(['executeCardTransfer'], (b) => void (isObject(b) && delete b.activity_id)),
    }),
    // Concurrent recipient creations lose all but one: a Push to Card to a lost recipient's
    // payment_details.id then fails (transfers.recipients.concurrent, suites/models/recipients.ts).
    faulty('p2c.recipients.lost-update', 'FLOW-PUSH-TO-CARD', 'recipient creation is read-await-write on the user\'s list: of concurrent creations only the last survives', faults('recipients.lost-update')),
    // Section 4 lists recipient delete and get (paths not shown: profile.operations): a delete takes effect.
    faulty('recipients.delete.noop', 'ENDPOINT-RECIPIENT-DELETE-EFFECT', `deleting a recipient answers 200 and keeps it: ${op('getRecipient')} still returns it`, faults('recipients.delete-noop')),
    benign('benign.recipients.delete-204', `${op('deleteRecipient')} answers 204 with an empty body (its answer is not shown)`, {
      transform: (req, res) => (req.operationId === 'deleteRecipient' && is2xx(res.status) ? { status: 204, headers: {}, body: '' } : undefined),
    }),
    faulty('p2c.activity-webhook.missing', 'EVENT-CARD-TRANSFER-ACTIVITY', 'card transfer completion emits no activity webhook', faults('webhooks.no-activity')),
    // Section 6: transaction status, including completion, is reported by activity webhooks; the end-to-end
    // check compares the deliveries' status with the one the activity reads once complete.
    faulty('p2c.activity-webhook.always-pending', 'EVENT-CARD-TRANSFER-ACTIVITY', 'the activity webhook of a completed card transfer says Pending', {}, {
      webhook: (_path, body, _ctx, id) => (id === 'activities' && isObject(body) && typeof body.status === 'string' ? { ...body, status: 'Pending' } : body),
    }),
    // Section 6 gives no order or delivery guarantee: Pending deliveries around the completed one are allowed.
    benign('benign.activity-webhook.pending-around', 'each activity webhook comes between two copies saying Pending (order and duplicates are not shown)', {}, {
      webhook: (_p, b) => b,
      webhookDeliveries: (p, b, ctx) => (p === ctx.model.webhookPath('activities') && isObject(b) && typeof b.status === 'string' ? [{ ...b, status: 'Pending' }, b, { ...b, status: 'Pending' }] : [b]),
    }),

    // ---------------------------------------------------------------------------- withdrawals, cards
    faulty('withdrawal.status.pending', 'STATE-WITHDRAWAL-REQUESTED', 'a pending withdrawal request has status "Pending" instead of "Requested"', {
      transform: onOk(['listWithdrawalRequests'], (b) => {
        for (const w of items(b)) if (isObject(w) && w.status === 'Requested') w.status = 'Pending';
      }),
    }),
    faulty('cards.close.not-terminal', 'STATE-CARD-CLOSE-TERMINAL', 'activate/block/unblock succeed on a closed card', faults('cards.close-not-terminal')),
    faulty('cards.list.empty', 'ENDPOINT-CARDS', `${op('listCards')} lists no card, even after one was created`, {
      transform: onOk(['listCards'], (b) => void (isObject(b) && (b.data = []))),
    }),

    // ------------------------------------- card actions take effect (STATE-CARD-ACTION-EFFECT), read back
    faulty('cards.block.noop', 'STATE-CARD-ACTION-EFFECT', `block answers 200 and leaves the card as it was: ${op('listCards')} still shows it Active`, faults('cards.block-noop')),
    faulty('cards.unblock.noop', 'STATE-CARD-ACTION-EFFECT', 'unblock answers 200 and leaves a blocked card blocked', faults('cards.unblock-noop')),
    faulty('cards.activate.noop', 'STATE-CARD-ACTION-EFFECT', 'activate answers 200 and leaves a blocked card blocked', faults('cards.activate-noop')),
    faulty('cards.close.leaves-usable', 'STATE-CARD-ACTION-EFFECT', 'close answers 200 and leaves the card as it was (still usable)', faults('cards.close-noop')),
    // Card status values are not shown (section 2): any spelling, a change is what is judged.
    benign('benign.cards.status-spellings', `card statuses are spelled ${Object.values(SPELLINGS).map((v) => JSON.stringify(v)).join(', ')} in every answer`, {
      transform: onOk(['createVirtualCard', 'listCards', 'activateCard', 'blockCard', 'unblockCard', 'closeCard'], (b) => {
        for (const c of isObject(b) && Array.isArray(b.data) ? b.data : [b]) if (isObject(c) && typeof c.status === 'string') c.status = SPELLINGS[c.status] ?? c.status;
      }),
    }),
    // Card transitions are not shown: a card may need activate before block.
    benign('benign.cards.created-inactive', 'cards are created Inactive; block is refused (400) until activate', faults('cards.created-inactive')),
    // Which status unblock leaves, and whether it is allowed, are not shown: accepted with the reading's warning.
    benign('benign.cards.unblock-inactive', 'unblock leaves the card Inactive (not the Active it had before block); activate makes it Active', faults('cards.unblock-inactive')),
    benign('benign.cards.unblock-refused', 'unblock is refused (400 ErrorInvalidField) on a blocked card', faults('cards.unblock-refused')),
    // When an action shows in the list is not shown.
    benign('benign.cards.effects-deferred', `${op('listCards')} shows an action's new status only 1 s after the action answered`, faults('cards.effects-deferred')),
  ];
}

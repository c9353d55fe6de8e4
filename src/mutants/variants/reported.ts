// Issue 23 "what a creation asked for is what the server reports" and "webhooks carry what the spec says
// they report": each fault reports something other than what was asked or done, in a place the spec
// shows (a field section 2 names, a webhook section 3 or 6 says reports it), and is caught by its rule.

import { randomUUID } from 'node:crypto';
import type { OperationId } from '../../model/types.ts';
import { field, isObject, onOk, type Json, type JsonObject } from '../transforms.ts';
import { onAliasWebhook } from '../proxy-edits.ts';
import { faults, faulty, op, type VariantSpec } from '../variant.ts';

/** Every user read (the answers carrying the section 2 User). */
const USER_READS: OperationId[] = ['getUserV1', 'getUserV2', 'validateRetailUser'];

/** card_data of every card in a create answer or a card list. */
function eachCardData(b: Json, edit: (d: JsonObject) => void): void {
  const data = field(b, 'data');
  for (const c of Array.isArray(data) ? data : [b]) {
    const card = field(c, 'card_data');
    if (isObject(card)) edit(card);
  }
}

export function reportedVariants(): VariantSpec[] {
  return [
    // ------------------------------------------------------------------ creations read back
    faulty('cards.virtual.format-plastic', 'ENDPOINT-CARD-AS-CREATED', `cards created through ${op('createVirtualCard')} are reported with format "plastic" (create answer and list)`, {
      transform: onOk(['createVirtualCard', 'listCards'], (b) => eachCardData(b, (d) => void (d.format = 'plastic'))),
    }),
    faulty('cards.virtual.name-not-kept', 'ENDPOINT-CARD-AS-CREATED', 'the card list reports every card as "Virtual card", not the card_name it was created with', {
      transform: onOk(['listCards'], (b) => eachCardData(b, (d) => void (d.card_name = 'Virtual card'))),
    }),
    faulty('users.read.country-default', 'ENDPOINT-USER-CREATE', 'user reads report country "US" whatever country the user was created with', {
      transform: onOk(USER_READS, (b) => void (isObject(b) && typeof b.country === 'string' && (b.country = 'US'))),
    }),
    faulty('users.read.email-other', 'ENDPOINT-USER-CREATE', 'user reads report another email than the one the user was created with', {
      transform: onOk(USER_READS, (b) => void (isObject(b) && typeof b.email === 'string' && (b.email = `other.${b.email}`))),
    }),
    faulty('recipients.personal-info.swapped', 'ENDPOINT-RECIPIENT-AS-CREATED', 'the recipient create answer reports first_name and last_name swapped in personal_info', {
      transform: onOk(['createRecipientV2'], (b) => {
        const p = field(b, 'personal_info');
        if (isObject(p)) [p.first_name, p.last_name] = [p.last_name, p.first_name];
      }),
    }),
    faulty('recipients.personal-info.flat-string', 'ENDPOINT-RECIPIENT-AS-CREATED', 'the recipient create answer carries personal_info as one string "First Last" instead of { first_name, last_name }', {
      transform: onOk(['createRecipientV2'], (b) => {
        if (!isObject(b) || !isObject(b.personal_info)) return;
        const p = b.personal_info;
        b.personal_info = `${String(p.first_name)} ${String(p.last_name)}`;
      }),
    }),
    faulty('bank.order.type-other', 'ENDPOINT-BANK-ACCOUNT-TYPES', `every ${op('createBankAccount')} answer says account_type "Spei", whatever type was ordered`, {
      transform: onOk(['createBankAccount'], (b) => void (isObject(b) && (b.account_type = 'Spei'))),
    }),
    faulty('wallets.by-id.ignored', 'ENDPOINT-WALLETS', `${op('getWallet')} ignores the wallet ID and always answers the default wallet`, {}, {
      request(req, ctx) {
        const param = ctx.profile.wallet_id_param;
        if (req.operationId !== 'getWallet' || !param || !req.query) return;
        const q = new URLSearchParams(req.query);
        q.delete(param);
        return { ...req, query: q.toString() };
      },
    }),

    // ----------------------------------------------------------------- webhooks report it
    faulty('sepa.bank-account-webhook.other-details-id', 'EVENT-BANK-ACCOUNT-DETAILS', 'the bank account webhook ending a SEPA activation carries a details_id other than the one the activation answered', {}, {
      webhook: (path, b, ctx) => (path === ctx.profile.webhook_paths?.bank_account && isObject(b) && b.details_id !== undefined ? { ...b, details_id: randomUUID() } : b),
    }),
    faulty('p2c.activity-webhook.other-activity-id', 'EVENT-ACTIVITY-WEBHOOK-REPORTS', 'the activity webhook of a card transfer names another activity_id (its id field stays the transfer\'s)', {}, {
      webhook: (_p, b, _ctx, id) => (id === 'activities' && isObject(b) && b.activity_id !== undefined ? { ...b, activity_id: randomUUID() } : b),
    }),
    faulty('p2c.activity-webhook.inbound', 'EVENT-ACTIVITY-WEBHOOK-REPORTS', 'the activity webhook of a card transfer reports direction Inbound, while the activity reads Outbound', {}, {
      webhook: (_p, b, _ctx, id) => (id === 'activities' && isObject(b) && b.direction === 'Outbound' ? { ...b, direction: 'Inbound' } : b),
    }),
    // Issue 23 triggerWebhook: creating a user emits no user webhook (allowed, benign.webhooks.user-on-trigger-only),
    // so the user webhook checks ask for one through control triggerWebhook, and judge what it carries.
    faulty('webhooks.user-trigger.id-dropped', 'ALIAS-WEBHOOK-USER-ID', 'user webhooks come only through control triggerWebhook, and they omit the deprecated id', faults('webhooks.user-on-trigger-only'), {
      webhook: onAliasWebhook('ALIAS-WEBHOOK-USER-ID', (b, old) => void delete b[old]),
    }),
    faulty('webhooks.delivery.put', 'EVENT-WEBHOOK-POST', 'webhooks are delivered by PUT instead of POST', {}, { webhook: (_p, b) => b, webhookMethod: 'PUT' }),
  ];
}

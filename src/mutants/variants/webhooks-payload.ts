// Issue 33 webhook items: a webhook a control call documents as emitting (spec/control.yaml
// x-emits-webhooks) that never arrives, the debt-case and corporation webhooks on a wrong path, the
// card limit webhook with an owner field, and the section 9.2 names spelled or typed another way in a
// payload; with benign twins for what the spec leaves free (extra fields, key order).

import { isObject, type Json, type JsonObject } from '../json.ts';
import type { ProxyHooks } from '../proxy.ts';
import type { WebhookId } from '../../model/types.ts';
import { proxyJson } from '../proxy-edits.ts';
import { benign, faults, faulty, op, webhook, type VariantSpec } from '../variant.ts';

/** Relays every webhook except those of `id` (read from the model through the proxy), which are never delivered. */
function neverDelivered(id: WebhookId): ProxyHooks {
  return { webhook: (_p, b) => b, webhookDeliveries: (path, b, ctx) => (path === ctx.model.webhookPath(id) ? [] : [b]) };
}

/** Activity items as a camelCase serializer writes the user's address: userAddress, with no user_address. */
const renamedOnActivities: ProxyHooks = {
  response(req, res) {
    if ((req.operationId !== 'listActivity' && req.operationId !== 'getActivity') || res.status >= 300 || !isObject(res.json)) return;
    const add = (o: Json | undefined): Json | undefined => (isObject(o) ? { ...o, userAddress: `0x${'a'.repeat(40)}` } : o);
    const body = res.json;
    return proxyJson(res, req.operationId === 'getActivity' ? add(body)! : { ...body, data: Array.isArray(body.data) ? body.data.map((x) => add(x) ?? null) : body.data ?? null });
  },
};

/** Rewrites the payloads of webhook `id` only. */
function onWebhook(id: WebhookId, edit: (b: JsonObject) => Json): ProxyHooks {
  return { webhook: (_p, b, _ctx, wid) => (wid === id && isObject(b) ? edit(b) : b) };
}

export function webhooksPayloadVariants(): VariantSpec[] {
  return [
    // Item 1: the control call spec/control.yaml says emits the webhook was made; nothing arrives.
    faulty('webhooks.3ds.never-delivered', 'ALIAS-WEBHOOK-3DS-OWNER', `a new 3DS challenge (control create3dsChallenge, or triggerWebhook 3ds) emits no ${webhook('3ds')} webhook`, {}, neverDelivered('3ds')),
    faulty('webhooks.erc-withdrawals.never-delivered', 'ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS', `a new withdrawal request (control createWithdrawalRequest) emits no ${webhook('erc-withdrawals')} webhook`, {}, neverDelivered('erc-withdrawals')),
    faulty('webhooks.user.never-delivered', 'ALIAS-WEBHOOK-USER-ID', `no ${webhook('user')} webhook is ever delivered, not even on control triggerWebhook user`, {}, neverDelivered('user')),
    faulty('webhooks.recipients.never-delivered', 'ALIAS-WEBHOOK-RECIPIENT-ADDRESS', `no ${webhook('recipients')} webhook is ever delivered, not even on control triggerWebhook recipients`, {}, neverDelivered('recipients')),
    // Item 10: the webhooks no Partner API event is documented to emit.
    faulty('webhooks.debt-cases.wrong-path', 'EVENT-DEBT-CASES-WEBHOOK-PATH', `debt case webhooks are delivered on /v2/webhooks/debt_cases instead of ${webhook('debt-cases')}`, faults('webhooks.debt-cases-wrong-path')),
    faulty('webhooks.corporations.wrong-path', 'EVENT-CORPORATIONS-WEBHOOK-PATH', `corporation webhooks are delivered on /v2/webhooks/corporation instead of ${webhook('corporations')}`, faults('webhooks.corporations-wrong-path')),
    faulty('webhooks.card-limit.owner', 'EVENT-CARD-LIMIT-NO-OWNER', 'the card limit webhook carries an owner field (the user\'s EOA)', faults('webhooks.card-limit-owner')),
    // Section 9.2: the convention's names as a camelCase serializer writes them, and a user_id not a UUID string.
    faulty('webhooks.naming.camel-case', 'VERSION-FIELD-NAMING', `the ${webhook('debt-cases')} webhook spells user_id as userId (a camelCase serializer)`, {}, onWebhook('debt-cases', (b) => {
      const { user_id: id, ...rest } = b;
      return { ...rest, userId: id ?? null };
    })),
    faulty('webhooks.naming.numeric-user-id', 'VERSION-FIELD-NAMING', `the ${webhook('corporations')} webhook carries user_id as a number, not a UUID string`, {}, onWebhook('corporations', (b) => ({ ...b, user_id: 4711 }))),
    // Every answer too (the audit of each answer): a field the schema leaves open ("Other activity fields: not shown"), renamed.
    faulty('naming.activity.camel-case', 'VERSION-FIELD-NAMING', `activity items (${op('listActivity')}, ${op('getActivity')}) carry an address as userAddress, the section 9.2 user_address spelled by a camelCase serializer`, {}, renamedOnActivities),
    // Freedoms: fields the convention does not name, in any case, and any key order.
    benign('benign.webhooks.camel-extra-fields', `the ${webhook('debt-cases')}, ${webhook('corporations')} and card limit webhooks carry extra camelCase fields the convention does not name (caseNumber, createdAt, userAddressVerified), keys in reverse order`, {}, {
      webhook: (path, b, ctx, id) => (isObject(b) && (id === 'debt-cases' || id === 'corporations' || path === ctx.profile.webhook_paths?.card_limit)
        ? Object.fromEntries([...Object.entries(b).reverse(), ['caseNumber', 'DC-1'], ['createdAt', '2026-01-01T00:00:00Z'], ['userAddressVerified', true]])
        : b),
    }),
  ];
}

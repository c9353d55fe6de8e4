// Pending variants: faults no check catches yet, or freedoms a check still refuses. They are not in
// the default bank (npm test runs it and must stay green); `selftest --area pending` runs them, and
// `rules --json` lists them per rule. Each moves to its area once the check side is on main.

import { randomUUID } from 'node:crypto';
import { proxyJson } from '../proxy-edits.ts';
import { is2xx, isObject, rewrite } from '../transforms.ts';
import { everyNth } from './depth.ts';
import { faulty, faults, type VariantSpec } from '../variant.ts';

export function pendingVariants(): VariantSpec[] {
  const brokenRead = everyNth(7);
  return [
    // Issue 13 intermittent faults: the read fails the check that uses it before the audit of every
    // answer (which runs after a passing body) can name ENDPOINT-RESPONSE-SCHEMA.
    faulty('schema.reads.every-7th-empty', 'ENDPOINT-RESPONSE-SCHEMA', 'every 7th successful read of the user answers an empty object (intermittent)', {
      transform: rewrite((req, res) => is2xx(res.status) && (req.operationId === 'getUserV1' || req.operationId === 'getUserV2') && brokenRead(String(req.headers.host)), () => ({})),
    }),
    // Issue 13 webhooks: an activity webhook that only ever says Pending passes the completion rule.
    faulty('p2c.activity-webhook.always-pending', 'EVENT-CARD-TRANSFER-ACTIVITY', 'the activity webhook of a completed card transfer says Pending', {}, {
      webhook: (_path, body, _ctx, id) => (id === 'activities' && isObject(body) && typeof body.status === 'string' ? { ...body, status: 'Pending' } : body),
    }),
    // Issue 13: an Active SEPA retrieval that mints a new details_id on every call passes.
    faulty('sepa.active.new-details-id', 'STATE-SEPA-ACTIVE-RETRIEVE', 'every POST /api/v1/bank/accounts {Sepa} answers a new details_id, also when the account is Active (details are not retrieved)', {}, {
      response(req, res) {
        if (req.operationId !== 'createBankAccount' || req.json?.account_type !== 'Sepa' || res.status < 200 || res.status >= 300) return;
        return proxyJson(res, { ...res.json, details_id: randomUUID() });
      },
    }),
    // Section 4 rule 5: retail registration "returns only id"; the kit's userIdFrom also accepts user_id.
    faulty('idp.retail.user-id-instead-of-id', 'ENDPOINT-RETAIL-REGISTER', 'POST /api/v1/user/retail answers user_id instead of id', {}, {
      response(req, res) {
        if (req.operationId !== 'registerRetailUser' || res.status < 200 || res.status >= 300 || typeof res.json?.id !== 'string') return;
        const { id, ...rest } = res.json;
        return proxyJson(res, { ...rest, user_id: id });
      },
    }),
    // Concurrent recipient creations lose all but one: a Push to Card to a lost recipient's
    // payment_details.id then fails. No check creates recipients concurrently yet.
    faulty('p2c.recipients.lost-update', 'FLOW-PUSH-TO-CARD', 'recipient creation is read-await-write on the user\'s list: of concurrent creations only the last survives', faults('recipients.lost-update')),
  ];
}

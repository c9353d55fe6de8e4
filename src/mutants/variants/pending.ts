// Pending variants: faults no check catches yet, or freedoms a check still refuses. They are not in
// the default bank (npm test runs it and must stay green); `selftest --area pending` runs them, and
// `rules --json` lists them per rule. Each moves to its area once the check side is on main.

import { is2xx, isObject, rewrite } from '../transforms.ts';
import { everyNth } from './depth.ts';
import { faulty, type VariantSpec } from '../variant.ts';

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
  ];
}

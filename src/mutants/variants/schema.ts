// Response schemas and content type (section 2/4), and user creation.

import { randomUUID } from 'node:crypto';
import { has } from '../proxy-edits.ts';
import { is2xx, onOk, chain, rewrite } from '../transforms.ts';
import { everyNth } from './depth.ts';
import { faulty, type VariantSpec } from '../variant.ts';

/** Builds the schema variants (stateful transforms get fresh state on every call). */
export function schemaVariants(): VariantSpec[] {
  const brokenRead = everyNth(7);
  return [
    // Issue 13 intermittent faults: the empty read often makes the receiving check fail on its own rule;
    // the runner audits the answers of failing checks too and reports it under ENDPOINT-RESPONSE-SCHEMA.
    faulty('schema.reads.every-7th-empty', 'ENDPOINT-RESPONSE-SCHEMA', 'every 7th successful read of the user answers an empty object (intermittent)', {
      transform: rewrite((req, res) => is2xx(res.status) && (req.operationId === 'getUserV1' || req.operationId === 'getUserV2') && brokenRead(String(req.headers.host)), () => ({})),
    }),
    faulty('schema.validation-rules.text-plain', 'ENDPOINT-RESPONSE-SCHEMA', 'GET /api/v1/validation/rules serves its JSON body as text/plain', {
      transform: (req, res) => {
        if (req.operationId === 'getValidationRules' && is2xx(res.status)) res.headers['content-type'] = 'text/plain; charset=utf-8';
      },
    }),
    faulty('schema.wallet.balances-dropped', 'ENDPOINT-RESPONSE-SCHEMA', 'GET /api/v1/wallet omits the required balances array', {
      transform: onOk(['getWallet'], (b) => void delete b.balances),
    }),
    faulty('schema.card.status-number', 'ENDPOINT-RESPONSE-SCHEMA', 'card status is an integer instead of a string', {
      transform: chain(
        onOk(['createVirtualCard'], (b) => void (b.status = 1)),
        onOk(['listCards'], (b) => void (Array.isArray(b?.data) && b.data.forEach((c: any) => (c.status = 1)))),
      ),
    }),

    // ------------------------------------------------------------------------------ users
    faulty('users.create-v2.wrong-id', 'ENDPOINT-USER-CREATE', 'POST /api/v2/user returns an id that is not the new user', {
      transform: onOk(['createUserV2'], (b) => {
        const id = randomUUID();
        if (has(b, 'user_id')) b.user_id = id;
        if (has(b, 'id')) b.id = id;
      }),
    }),
  ];
}

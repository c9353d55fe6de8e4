// Response schemas and content type (section 2/4), and user creation. The section 2 field
// constraints (formats, units, listed values, nesting, "carries only") each have one variant here
// that breaks exactly that constraint on one operation; the audit of every answer names
// ENDPOINT-RESPONSE-SCHEMA. The full table of constraints is in the schema helper's note. Also the
// section 6 user webhook path (the legacy path it replaces), a field-placement fact of the same kind.

import { randomUUID } from 'node:crypto';
import { has, proxyJson } from '../proxy-edits.ts';
import type { ProxyHooks } from '../proxy.ts';
import { field, is2xx, isObject, items, onOk, chain, rewrite } from '../transforms.ts';
import { everyNth } from './depth.ts';
import { benign, faults, faulty, op, webhook, type VariantSpec } from '../variant.ts';

/**
 * The user token as an opaque string (the JWT's dots turned into '~', prefixed): section 2 says
 * access_token is a JWT. The proxy turns it back on the way in, so the token still works and only
 * its format is wrong.
 */
const OPAQUE = 'opq_';
const opaqueUserToken: ProxyHooks = {
  request(req) {
    const auth = req.headers.authorization;
    if (auth?.startsWith(`Bearer ${OPAQUE}`)) req.headers.authorization = `Bearer ${auth.slice(7 + OPAQUE.length).replaceAll('~', '.')}`;
    return req;
  },
  response(req, res) {
    if (req.operationId !== 'authorizeUser' || !is2xx(res.status) || !isObject(res.json) || typeof res.json.access_token !== 'string') return;
    return proxyJson(res, { ...res.json, access_token: OPAQUE + res.json.access_token.replaceAll('.', '~') });
  },
};

/** Builds the schema variants (stateful transforms get fresh state on every call). */
export function schemaVariants(): VariantSpec[] {
  const brokenRead = everyNth(7);
  return [
    // Issue 13 intermittent faults: the empty read often makes the receiving check fail on its own rule;
    // the runner audits the answers of failing checks too and reports it under ENDPOINT-RESPONSE-SCHEMA.
    faulty('schema.reads.every-7th-empty', 'ENDPOINT-RESPONSE-SCHEMA', 'every 7th successful read of the user answers an empty object (intermittent)', {
      transform: rewrite((req, res) => is2xx(res.status) && (req.operationId === 'getUserV1' || req.operationId === 'getUserV2') && brokenRead(String(req.headers.host)), () => ({})),
    }),
    faulty('schema.validation-rules.text-plain', 'ENDPOINT-RESPONSE-SCHEMA', `${op('getValidationRules')} serves its JSON body as text/plain`, {
      transform: (req, res) => {
        if (req.operationId === 'getValidationRules' && is2xx(res.status)) res.headers['content-type'] = 'text/plain; charset=utf-8';
      },
    }),
    faulty('schema.wallet.balances-dropped', 'ENDPOINT-RESPONSE-SCHEMA', `${op('getWallet')} omits the required balances array`, {
      transform: onOk(['getWallet'], (b) => void (isObject(b) && delete b.balances)),
    }),
    faulty('schema.card.status-number', 'ENDPOINT-RESPONSE-SCHEMA', 'card status is an integer instead of a string', {
      transform: chain(
        onOk(['createVirtualCard'], (b) => void (isObject(b) && (b.status = 1))),
        onOk(['listCards'], (b) => {
          for (const c of items(field(b, 'data'))) if (isObject(c)) c.status = 1;
        }),
      ),
    }),

    // ------------------------------------------------------- section 2 field constraints
    // Format: Token access_token "JWT".
    faulty('schema.user-token.opaque', 'ENDPOINT-RESPONSE-SCHEMA', `${op('authorizeUser')} answers an opaque (non-JWT) access_token that still works`, {}, opaqueUserToken),
    // Unit: Token expires_at "Unix time in seconds".
    faulty('schema.user-token.expires-ms', 'ENDPOINT-RESPONSE-SCHEMA', 'the user-token expires_at is in milliseconds', faults('user-token.expires-ms')),
    // Carries only: "The user-token response ... carries only access_token and expires_at".
    faulty('schema.user-token.token-type', 'ENDPOINT-RESPONSE-SCHEMA', 'the user-token answer also carries token_type Bearer', faults('user-token.token-type')),
    // Returns only: "registering via /api/v1/user/retail returns only id" (section 4 rule 5).
    faulty('schema.retail.returns-token', 'ENDPOINT-RESPONSE-SCHEMA', `${op('registerRetailUser')} also answers access_token and expires_at`, faults('retail.returns-token')),
    // Listed value: a pending withdrawal request has status `Requested`.
    faulty('schema.withdrawal.pending-label', 'ENDPOINT-RESPONSE-SCHEMA', 'pending ERC-20 withdrawal requests read status Pending instead of Requested', faults('withdrawal.pending-label')),
    // Nesting: GET /api/v2/user is a User (its fields at the top level) with the capabilities array.
    faulty('schema.user-v2.nested', 'ENDPOINT-RESPONSE-SCHEMA', `${op('getUserV2')} nests the user fields under \`user\` beside capabilities`, {
      transform: onOk(['getUserV2'], (b) => {
        if (!isObject(b)) return;
        const { capabilities, ...user } = b;
        return { user, capabilities };
      }),
    }),

    // Readings the schemas accept where section 2 leaves the choice open (x-unspecified in spec/openapi.yaml).
    benign('benign.schema.retail-user-id', `${op('registerRetailUser')} answers user_id beside id, with the same value (section 9.3 keeps both names)`, {
      transform: onOk(['registerRetailUser'], (b) => void (isObject(b) && typeof b.id === 'string' && (b.user_id = b.id))),
    }),
    benign('benign.schema.card-format-case', 'card_data.format reads Virtual (capitalised) in card answers', {
      transform: chain(
        onOk(['createVirtualCard'], (b) => {
          const card = field(b, 'card_data');
          if (isObject(card)) card.format = 'Virtual';
        }),
        onOk(['listCards'], (b) => {
          for (const c of items(field(b, 'data'))) {
            const card = field(c, 'card_data');
            if (isObject(card)) card.format = 'Virtual';
          }
        }),
      ),
    }),

    // Section 6: /v2/webhooks/user replaces the legacy /webhook/users (a real fault in the reference).
    faulty('webhooks.user.legacy-path', 'EVENT-USER-WEBHOOK-PATH', `user webhooks are delivered on the legacy /webhook/users instead of ${webhook('user')}`, faults('webhooks.user-legacy-path')),
    // Section 6/2: the user webhook carries user_id (a UUID string); spec/openapi.yaml UserWebhook types it.
    faulty('webhooks.user.ids-wrapped', 'EVENT-WEBHOOK-DELIVERY', 'the user webhook carries user_id and id wrapped in objects ({value}) instead of strings', {}, {
      webhook: (_p, b, _ctx, id) => (id === 'user' && isObject(b) && typeof b.user_id === 'string' ? { ...b, user_id: { value: b.user_id }, ...(typeof b.id === 'string' ? { id: { value: b.id } } : {}) } : b),
    }),

    // ------------------------------------------------------------------------------ users
    faulty('users.create-v2.wrong-id', 'ENDPOINT-USER-CREATE', `${op('createUserV2')} returns an id that is not the new user`, {
      transform: onOk(['createUserV2'], (b) => {
        const id = randomUUID();
        if (has(b, 'user_id')) b.user_id = id;
        if (has(b, 'id')) b.id = id;
      }),
    }),
  ];
}

// Benign variants for the spec's freedoms: what a production server may do because the spec
// leaves it open. Each must stay clean: a check failing one fails a correct server.

import { every429, field, items, is2xx, isObject, mapDeep, onOk, rewrite, rewriteObject, type Json } from '../transforms.ts';
import { selftestRateLimitOver } from '../rate-limit.ts';
import { benign, faults, op, waiting, type VariantSpec } from '../variant.ts';

const ADDRESS = /^0x[0-9a-f]{40}$/;

/** Upper-cases every other hex letter of a lower-case EVM address: mixed case, as EIP-55 checksums look. */
const mixedCase = (a: string) => `0x${[...a.slice(2)].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('')}`;

/**
 * The Smart Wallet appears in GET /api/v1/wallets only `delayMs` after a user is first listed (keyed by
 * the identity the request carries): provisioning timing is not in the spec.
 */
function walletsLate(delayMs: number) {
  const firstSeen = new Map<string, number>();
  return rewriteObject((req, res, b) => {
    if (req.operationId !== 'listWallets' || !is2xx(res.status) || !Array.isArray(b.data)) return false;
    const who = ['x-user-id', 'x-user-email', 'x-user-wallet', 'authorization'].map((h) => String(req.headers[h] ?? '')).join('|');
    const t = firstSeen.get(who) ?? Date.now();
    firstSeen.set(who, t);
    return Date.now() - t < delayMs;
  }, (b) => void (b.data = []));
}

export function freedomsVariants(): VariantSpec[] {
  return [
    // RFC 9110: a request without Accept-Encoding accepts any coding.
    benign('benign.gzip', 'every response body is gzip-compressed (Content-Encoding: gzip)', {}, { gzip: true }),
    // Section 6 gives no emission rule for the user webhook: a target may send it only when asked (control triggerWebhook).
    benign('benign.webhooks.user-on-trigger-only', 'creating or updating a user emits no user webhook; control triggerWebhook does', faults('webhooks.user-on-trigger-only')),
    waiting(benign('benign.webhooks.late', 'webhooks arrive 6 s late (the spec shows no delivery time)', {}, { webhook: (_p, b) => b, webhookDelayMs: 6000 })),
    benign('benign.webhooks.twice', 'every webhook is delivered twice (the spec shows no delivery guarantee)', {}, { webhook: (_p, b) => b, webhookDeliveries: (_p, b) => [b, b] }),
    benign('benign.webhooks.extra', 'webhooks carry extra fields in reverse key order, and an unknown event precedes each on the same path', {}, {
      webhook: (_p, b) => (isObject(b) ? Object.fromEntries([...Object.entries(b).reverse(), ['x_delivery_id', 'd-1']]) : b),
      webhookDeliveries: (_p, b) => [{ event: 'x.unknown_event', data: { note: 'not a documented payload' } }, b],
    }),
    benign('benign.actions.204', 'card actions (activate, block, unblock, close) answer 204 with an empty body', {
      transform: (req, res) => {
        if (['activateCard', 'blockCard', 'unblockCard', 'closeCard'].includes(req.operationId ?? '') && is2xx(res.status)) return { status: 204, headers: {}, body: '' };
      },
    }),
    benign('benign.wallets.several', `${op('listWallets')} lists a second Smart Wallet after the user's own`, {
      transform: onOk(['listWallets'], (b) => {
        const extra = { wallet_address: `0x${'5'.repeat(40)}`, balances: [] };
        if (Array.isArray(b)) return [...b, extra];
        if (isObject(b) && Array.isArray(b.data)) return { ...b, data: [...b.data, extra] };
      }),
    }),
    benign('benign.capabilities.extra-types', `${op('getUserV2')} lists capability types the spec does not show`, {
      transform: onOk(['getUserV2'], (b) => {
        const capabilities = field(b, 'capabilities');
        if (Array.isArray(capabilities)) capabilities.push({ type: 'MastercardPhysicalCard', status: 'Inactive' }, { type: 'AchAccount', status: 'ActivationNotStarted' });
      }),
    }),
    benign('benign.addresses.mixed-case', 'EVM addresses in responses come in mixed case (compare case-insensitively)', {
      transform: rewrite((_req, res) => is2xx(res.status), (b) => mapDeep(b, (v) => (typeof v === 'string' && ADDRESS.test(v) ? mixedCase(v) : v))),
    }),
    benign('benign.lists.paginated', 'list answers carry pagination fields beside data', {
      transform: rewriteObject((_req, res, b) => is2xx(res.status) && Array.isArray(b.data), (b) => ({ ...b, page_number: 1, page_size: 50, total: items(b.data).length, has_more: false })),
    }),
    benign('benign.errors.other-wording', 'errors outside the section 7 tables use other reasons and wording', {
      transform: rewriteObject((_req, res, b) => res.status >= 400 && res.ruleId === undefined && typeof b.error_description === 'string', (b) => {
        b.error_reason = 'ErrorValidation';
        b.error_description = `The request could not be processed (${String(b.error_description)})`;
      }),
    }),
    // Section 7 lists error_details in the body shape but shows details only for some rows: an error
    // with none may leave the field out (recorded x-unspecified on ErrorBody).
    benign('benign.errors.no-empty-details', 'error bodies with no details leave error_details out', {
      transform: rewriteObject((_req, res, b) => res.status >= 400 && Array.isArray(b.error_details) && b.error_details.length === 0, (b) => void delete b.error_details),
    }),
    // Section 4: user creation returns "the user id" (field not shown): {user_id} is a reading of it.
    benign('benign.create-user.user-id-field', 'user creation (v1 and v2) answers {user_id} instead of {id}', {
      transform: onOk(['createUserV1', 'createUserV2'], (b) => {
        if (!isObject(b) || typeof b.id !== 'string') return;
        const { id, ...rest } = b;
        return { ...rest, user_id: id };
      }),
    }),
    // Sections 1 and 2 say a user has Smart Wallets, not when they are provisioned.
    waiting(benign('benign.wallets.late', 'a new user\'s Smart Wallet is listed only 3 s after the user is first listed', { transform: walletsLate(3000) })),
    // Section 4: 3DS payloads and the id field of a challenge are not shown; `id` is as good a name as `transaction_id`.
    benign('benign.3ds.id-field', 'pending 3DS challenges are listed with their id under `id` instead of `transaction_id`', {
      transform: onOk(['list3dsRequests'], (b) => {
        const rename = (x: Json) => {
          if (!isObject(x) || !('transaction_id' in x)) return x;
          const { transaction_id, ...rest } = x;
          return { id: transaction_id, ...rest };
        };
        return Array.isArray(b) ? b.map(rename) : isObject(b) && Array.isArray(b.data) ? { ...b, data: b.data.map(rename) } : b;
      }),
    }),
    // RFC 6749 7.1: the token type is case-insensitive.
    benign('benign.token-type.lowercase', 'the S2S token answer says token_type "bearer"', { transform: onOk(['createToken'], (b) => void (isObject(b) && (b.token_type = 'bearer'))) }),
    // Section 7 other rule 5: the answer to malformed JSON is not shown; a 500 with the section 7 body is a reading.
    benign('benign.malformed-json-500', 'a malformed JSON request body answers 500 CategoryInternalFailure instead of 400', faults('input.malformed-json-500')),
    // Seconds of latency within the budget (section 8 recommends 30 s; the selftest's is 3 s): a check's
    // time limit follows its requests and the latency it observes (src/runner/time-limit.ts). Here every
    // 16th answer takes 2 s under a 10 s base limit: limits.token.rate-limit-split (about 290 calls)
    // waits over 30 s, past a fixed 10 s limit, so a constant limit would time it out. The run only
    // waits, so 24 checks at once. A 10 s token window: the rate-limit probes, slowed to about ten
    // requests a second, still reach the limit within one window. The every-answer variant (640-730 s
    // alone) is the opt-in area `slow` (variants/slow.ts).
    {
      ...benign('benign.latency-2s.every-16th', 'every 16th response takes 2 s (within the 3 s selftest budget), 10 s base check limit', { latencyMs: 2000, latencyEvery: 16, rateLimit: selftestRateLimitOver(10_000) }),
      checkConcurrency: 24,
      checkTimeoutMs: 10_000,
    },
    // 429 on endpoints other than the token endpoint (section 8 names only the token endpoint's limit;
    // nothing forbids others), within the client's backoff: every request retries a 429 within its budget.
    waiting(
      benign('benign.429.other-endpoints', 'every 9th read (GET) answers 429 with Retry-After: 1, within the client\'s backoff', {
        transform: every429(9, (req) => req.method === 'GET' && req.server === 'api' && !req.operationId?.startsWith('control:'), () => '1'),
      }),
    ),
    // Section 4 shows no headers for the card-tokenization environment ("Unless stated, the headers are
    // those of section 5"; x-auth-unspecified): a vendor may protect it with the S2S Bearer token. The
    // reference's published profile says so in operation_auth; with it nothing may fail or be blocked.
    benign('benign.pci.requires-s2s', `card tokenization (${op('tokenizeCard')}) requires the section 5 S2S Bearer token; the profile sets operation_auth.tokenizeCard mode s2s`, { pciAuth: 's2s' }),
    benign('benign.429.retry-after-date', 'every 7th token request answers 429 with Retry-After as an HTTP date', {
      transform: every429(7, (req) => req.operationId === 'createToken', () => new Date(Date.now() + 1000).toUTCString()),
    }),
  ];
}

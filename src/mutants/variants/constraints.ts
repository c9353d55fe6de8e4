// Section 2/4/5 facts checked exactly that had no variant of their own: the two-letter country, the
// card transfer estimate (estimation_id and rates), tokenization's card_token, the two SEPA statuses
// only the wallet-linking and waiting paths show, and the S2S token's algorithm. Each variant breaks
// that one fact on the operation that carries it; the schema audit of every answer (spec/openapi.yaml),
// the Push to Card flow (step 1 gives card_token) and the S2S claims check (spec/rules/auth.yaml
// algorithm) catch them.

import { resignedToken } from '../proxy-edits.ts';
import { field, isObject, items, onOk } from '../transforms.ts';
import { faulty, op, type VariantSpec } from '../variant.ts';

/** Three letters where section 2 says "country code, two letters" (the same country, ISO alpha-3). */
const ALPHA3: Record<string, string> = { US: 'USA', DE: 'DEU', FR: 'FRA', GB: 'GBR', ES: 'ESP', IT: 'ITA', NL: 'NLD', MX: 'MEX' };

/** Renames capability status `from` to `to` in every GET /api/v2/user answer. */
const renameStatus = (from: string, to: string) =>
  onOk(['getUserV2'], (b) => {
    for (const c of items(field(b, 'capabilities'))) if (isObject(c) && c.status === from) c.status = to;
  });

/** The S2S token re-signed as HS512 (header alg and HMAC-SHA512, claims unchanged) where section 5 says HS256. */
const hs512Token = resignedToken('createToken', 's2s_signing_secret', () => undefined, { alg: 'HS512' });

export function constraintsVariants(): VariantSpec[] {
  return [
    faulty('schema.user-read.country-alpha3', 'ENDPOINT-RESPONSE-SCHEMA', 'user reads report the country as three letters (USA, DEU, ...) instead of the two-letter code', {
      transform: onOk(['getUserV1', 'getUserV2', 'validateRetailUser'], (b) => {
        if (isObject(b) && typeof b.country === 'string') b.country = ALPHA3[b.country.toUpperCase()] ?? `${b.country}X`;
      }),
    }),
    faulty('schema.card-estimate.rates-dropped', 'ENDPOINT-RESPONSE-SCHEMA', `${op('estimateCardTransfer')} answers estimation_id without rates`, {
      transform: onOk(['estimateCardTransfer'], (b) => void (isObject(b) && delete b.rates)),
    }),
    faulty('schema.card-estimate.estimation-id-renamed', 'ENDPOINT-RESPONSE-SCHEMA', `${op('estimateCardTransfer')} names the estimate id estimate_id instead of estimation_id`, {
      transform: onOk(['estimateCardTransfer'], (b) => {
        if (!isObject(b) || b.estimation_id === undefined) return;
        b.estimate_id = b.estimation_id;
        delete b.estimation_id;
      }),
    }),
    faulty('transfers.tokenize.card-token-renamed', 'FLOW-PUSH-TO-CARD', `${op('tokenizeCard')} names the token \`token\` instead of card_token`, {
      transform: onOk(['tokenizeCard'], (b) => {
        if (!isObject(b) || b.card_token === undefined) return;
        b.token = b.card_token;
        delete b.card_token;
      }),
    }),
    faulty('schema.sepa.verification-required-renamed', 'ENDPOINT-RESPONSE-SCHEMA', 'the SepaAccount status ExternalProviderVerificationRequired reads VerificationRequired', {
      transform: renameStatus('ExternalProviderVerificationRequired', 'VerificationRequired'),
    }),
    faulty('schema.sepa.registration-pending-renamed', 'ENDPOINT-RESPONSE-SCHEMA', 'the SepaAccount status ExternalProviderRegistrationPending reads RegistrationPending', {
      transform: renameStatus('ExternalProviderRegistrationPending', 'RegistrationPending'),
    }),
    faulty('s2s.token.alg-hs512', 'AUTH-S2S-TOKEN-CLAIMS', 'S2S tokens are signed HS512 (header alg and signature) instead of HS256', {}, hs512Token),
  ];
}

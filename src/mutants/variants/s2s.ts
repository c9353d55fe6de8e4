// S2S token validation: the section 7 rows for requests using an S2S token.

import { S2S_PROBES } from '../ops.ts';
import { onRule, restatus, acceptInsteadOf } from '../transforms.ts';
import { faults, faulty, op, type VariantSpec } from '../variant.ts';

/** Builds the s2s variants (stateful transforms get fresh state on every call). */
export function s2sVariants(): VariantSpec[] {
  return [
    faulty('s2s.signature.not-checked', 'ERR-S2S-SIGNATURE-INVALID', 'config reads accept an S2S token whose HMAC signature does not verify', {
      transform: acceptInsteadOf('ERR-S2S-SIGNATURE-INVALID', S2S_PROBES),
    }),
    faulty('s2s.expiry.not-checked', 'ERR-S2S-TOKEN-EXPIRED', 'config reads accept an expired S2S token', {
      transform: acceptInsteadOf('ERR-S2S-TOKEN-EXPIRED', S2S_PROBES),
    }),
    faulty('s2s.expired.400', 'ERR-S2S-TOKEN-EXPIRED', 'an expired S2S token answers 400 ErrorInvalidField instead of 401 ErrorExpired', faults('s2s.expired-as-400')),
    faulty('s2s.azp.not-required', 'ERR-S2S-AZP-MISSING', 'an S2S token without the azp claim is accepted', {
      transform: acceptInsteadOf('ERR-S2S-AZP-MISSING', S2S_PROBES),
    }),
    faulty('s2s.company-id.not-required', 'ERR-S2S-COMPANY-ID-MISSING', 'an S2S token without the company_id claim is accepted', {
      transform: acceptInsteadOf('ERR-S2S-COMPANY-ID-MISSING', S2S_PROBES),
    }),
    faulty('s2s.auth-header-missing.wrong-message', 'ERR-S2S-AUTH-HEADER-MISSING', 'no Authorization header on S2S calls answers "Authorization header required"', {
      transform: onRule('ERR-S2S-AUTH-HEADER-MISSING', (b) => void (b.error_description = 'Authorization header required'), S2S_PROBES),
    }),
    faulty('s2s.bearer-format.401', 'ERR-S2S-BEARER-FORMAT', 'a non-Bearer Authorization header answers 401 instead of 400', {
      transform: onRule('ERR-S2S-BEARER-FORMAT', (b, res) => restatus(b, res, 401), S2S_PROBES),
    }),
    // Issue 23 "rows on every operation they apply to": each broken on one operation the old sampling
    // (the rule's operations, the config reads and four GETs or a user creation) never chose: writes that
    // create nothing and move no money.
    faulty('s2s.expiry.not-checked-on-statement', 'ERR-S2S-TOKEN-EXPIRED', `${op('getFullStatement')} alone accepts an expired S2S token`, {
      transform: acceptInsteadOf('ERR-S2S-TOKEN-EXPIRED', ['getFullStatement']),
    }),
    faulty('s2s.azp.not-required-on-fx-estimate', 'ERR-S2S-AZP-MISSING', `${op('estimateFx')} alone accepts an S2S token without the azp claim`, {
      transform: acceptInsteadOf('ERR-S2S-AZP-MISSING', ['estimateFx']),
    }),
    // The card transfer estimate joins the rows with a body built from the Push to Card steps (row-steps.ts).
    faulty('s2s.company-id.not-required-on-card-estimate', 'ERR-S2S-COMPANY-ID-MISSING', `${op('estimateCardTransfer')} alone accepts an S2S token without the company_id claim`, {
      transform: acceptInsteadOf('ERR-S2S-COMPANY-ID-MISSING', ['estimateCardTransfer']),
    }),
    // Issue 33 item 9: the S2S rows on user-scoped writes that create something and on the S2S form of
    // authorize, which the rows used to leave out.
    faulty('s2s.expiry.not-checked-on-card-create', 'ERR-S2S-TOKEN-EXPIRED', `${op('createVirtualCard')} alone accepts an expired S2S token (and creates the card)`, {
      transform: acceptInsteadOf('ERR-S2S-TOKEN-EXPIRED', ['createVirtualCard']),
    }),
    faulty('s2s.signature.not-checked-on-authorize', 'ERR-S2S-SIGNATURE-INVALID', `${op('authorizeUser')} (S2S form) alone accepts an S2S token whose signature does not verify`, {
      transform: acceptInsteadOf('ERR-S2S-SIGNATURE-INVALID', ['authorizeUser']),
    }),
    // Issue 33 "rules on every route they govern": broken on a card action, an operation with a path
    // parameter the rows left out before (the sweep reaches it with the shared card's id).
    faulty('s2s.signature.not-checked-on-card-block', 'ERR-S2S-SIGNATURE-INVALID', `${op('blockCard')} alone accepts an S2S token whose signature does not verify (and blocks the card)`, {
      transform: acceptInsteadOf('ERR-S2S-SIGNATURE-INVALID', ['blockCard']),
    }),
    faulty('s2s.bearer-format.401-on-retail-validate', 'ERR-S2S-BEARER-FORMAT', `${op('validateRetailUser')} alone answers a non-Bearer Authorization header with 401 instead of 400`, {
      transform: onRule('ERR-S2S-BEARER-FORMAT', (b, res) => restatus(b, res, 401), ['validateRetailUser']),
    }),
  ];
}

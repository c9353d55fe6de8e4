// X-Chain-Id, user identity headers (section 5) and company isolation.

import type { ResponseTransform } from '../../reference/index.ts';
import { acceptInsteadOf, is2xx, onRule, restatus } from '../transforms.ts';
import { isUserToken } from './user-token.ts';
import { faults, faulty, op, type VariantSpec } from '../variant.ts';

/** `t` applied to user-token calls (and to successes, which acceptInsteadOf keeps as its answer). */
const userTokenOnly = (t: ResponseTransform): ResponseTransform => (req, res) => (isUserToken(req.headers.authorization) || is2xx(res.status) ? t(req, res) : undefined);

/** Builds the identity variants (stateful transforms get fresh state on every call). */
export function identityVariants(): VariantSpec[] {
  return [
    faulty('chain.not-required', 'AUTH-CHAIN-ID-REQUIRED', 'X-Chain-Id is not required on user calls', faults('chain.optional')),
    // Issue 13: section 5 requires X-Chain-Id on user-token calls and the identity-provider form too.
    faulty('chain.token-forms.not-required', 'AUTH-CHAIN-ID-REQUIRED', 'X-Chain-Id is required on S2S calls only, not with a user token or on the identity-provider form', faults('chain.optional-token-forms')),
    // A non-numeric X-Chain-Id accepted is a reading, not a fault (section 5 does not say a non-numeric value is refused): benign.chain.non-numeric-accepted (readings.ts).
    faulty('chain.missing.wrong-message', 'ERR-S2S-CHAIN-ID-MISSING', 'a missing X-Chain-Id answers "Missing X-Chain-Id header"', {
      transform: onRule('ERR-S2S-CHAIN-ID-MISSING', (b) => void (b.error_description = 'Missing X-Chain-Id header')),
    }),
    // Issue 23 "rows on every operation they apply to": the X-Chain-Id row broken on one operation its
    // check used to leave out (it tried getUserV1, getUserV2, POST /api/v1/user and authorize only).
    faulty('chain.missing.accepted-on-withdrawals', 'AUTH-CHAIN-ID-REQUIRED', `${op('listWithdrawalRequests')} alone accepts an S2S call without X-Chain-Id`, {
      transform: acceptInsteadOf('ERR-S2S-CHAIN-ID-MISSING', ['listWithdrawalRequests']),
    }),
    // Issue 33 "rules on every route they govern": an operation with a path parameter, which the rows left
    // out before (the sweep reaches it with the shared card's id).
    faulty('identity.missing.accepted-on-card-pan', 'ERR-S2S-USER-IDENTIFIER-MISSING', `${op('getCardPan')} alone accepts an S2S call without any user identity header`, {
      transform: acceptInsteadOf('ERR-S2S-USER-IDENTIFIER-MISSING', ['getCardPan']),
    }),
    // Issue 33 item 9: a user-token call without X-Chain-Id was tried on GET /api/v1/user only.
    faulty('chain.user-token.accepted-on-cards', 'AUTH-CHAIN-ID-REQUIRED', `${op('listCards')} alone accepts a user-token call without X-Chain-Id (S2S calls there still need it)`, {
      transform: userTokenOnly(acceptInsteadOf('ERR-S2S-CHAIN-ID-MISSING', ['listCards'])),
    }),
    faulty('chain.missing.500-on-card-create', 'ERR-S2S-CHAIN-ID-MISSING', `${op('createVirtualCard')} alone answers a missing X-Chain-Id with 500 ErrorInternal instead of the 400 row`, {
      transform: onRule('ERR-S2S-CHAIN-ID-MISSING', (b, res) => {
        restatus(b, res, 500);
        b.error_reason = 'ErrorInternal';
      }, ['createVirtualCard']),
    }),
    faulty('identity.multiple.accepted', 'ERR-S2S-USER-IDENTIFIER-MULTIPLE', 'several identity headers are accepted (the first wins)', faults('identity.allow-multiple')),
    faulty('identity.multiple.wrong-details', 'ERR-S2S-USER-IDENTIFIER-MULTIPLE', 'the multiple-identifiers error names X-User-Id instead of user_identifier in error_details', {
      transform: onRule('ERR-S2S-USER-IDENTIFIER-MULTIPLE', (b) => void (b.error_details = [{ key: 'field', details: 'X-User-Id' }])),
    }),
    faulty('identity.none.500', 'ERR-S2S-USER-IDENTIFIER-MISSING', 'no identity header answers 500 ErrorInternal instead of 400', {
      transform: onRule('ERR-S2S-USER-IDENTIFIER-MISSING', (b, res) => {
        restatus(b, res, 500);
        b.error_reason = 'ErrorInternal';
        b.error_description = 'Internal error';
      }),
    }),
    faulty('identity.wallet.smart-wallet-accepted', 'AUTH-X-USER-WALLET-IS-EOA', 'X-User-Wallet also matches the Smart Wallet address', faults('identity.wallet-matches-smart-wallet')),
    faulty('identity.not-found.wrong-reason', 'ERR-S2S-USER-NOT-FOUND', 'an unknown user answers reason ErrorInvalidField instead of ErrorNotFound', {
      transform: onRule('ERR-S2S-USER-NOT-FOUND', (b) => void (b.error_reason = 'ErrorInvalidField')),
    }),
    faulty('isolation.cross-company', 'AUTH-COMPANY-ISOLATION', "another company's user is found and returned", faults('identity.cross-company')),
  ];
}

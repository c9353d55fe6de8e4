// Issue 13 "never-exercised modelled behaviour" (cover): the activity feed and activity by id, the
// optional audience on token requests, the IdP user's address, the wallets / balances webhooks, and
// section 7 rows broken on one operation only (rows tried on every operation they apply to).
// Every variant is a real fault point of the reference (src/reference/faults.ts), not a response
// rewrite, so the check must see the fault wherever the reference makes it.

import { faults, faulty, op, type VariantSpec } from '../variant.ts';

export function feedsVariants(): VariantSpec[] {
  return [
    faulty('feeds.activity.wrong-direction', 'ENDPOINT-ACTIVITY-FEED', 'activity items (feed and by id) carry direction "Outgoing", not one of the section 2 values Inbound, Outbound', faults('activity.wrong-enum')),
    faulty('feeds.activity.bare-array', 'ENDPOINT-ACTIVITY-FEED', 'the activity feed answers a bare array instead of { data: [Activity] }', faults('activity.bare-array')),
    faulty('feeds.token.audience-refused', 'AUTH-S2S-TOKEN-RESPONSE', `${op('createToken')} refuses a request carrying the optional audience string (400 ErrorInvalidField)`, faults('token.refuse-audience')),
    faulty('feeds.idp.user-address-not-linked', 'AUTH-IDP-EXCHANGE', 'retail registration stores a fresh address as user_address instead of the smart_wallet the identity token links', faults('idp.user-address-not-linked')),
    faulty('feeds.webhooks.wallets-renamed', 'ALIAS-UNCHANGED-WALLET-NAMES', 'the wallets and balances webhooks carry account_address instead of wallet_address (renamed, though section 9.5 keeps them unchanged)', faults('webhooks.wallets-renamed')),
    // Issue 13 "rows tried on too few operations": each row broken on one operation its check never tried before.
    faulty('feeds.identity.multiple-on-card-create', 'ERR-S2S-USER-IDENTIFIER-MULTIPLE', `several identity headers are accepted (first wins) on ${op('createVirtualCard')} only; GET reads refuse them`, faults('identity.multiple-on-card-create')),
    faulty('feeds.idp.retail-id-expiry-ignored', 'ERR-IDP-ID-TOKEN-EXPIRED', `${op('registerRetailUser')} accepts an expired provider identity token; ${op('authorizeUser')} refuses it`, faults('idp.retail-id-expiry-ignored')),
    faulty('feeds.idp.retail-email-optional', 'ERR-IDP-IDENTIFIERS-INCOMPLETE', `${op('registerRetailUser')} accepts an identity token whose linked_accounts carry no email; ${op('authorizeUser')} refuses it`, faults('idp.retail-email-optional')),
  ];
}

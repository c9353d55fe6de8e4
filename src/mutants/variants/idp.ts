// Identity-provider exchange (section 5 and its section 7 table).

import { IDP_OPS } from '../ops.ts';
import { proxyJson } from '../proxy-edits.ts';
import { asRecord, onRule, restatus, acceptInsteadOf } from '../transforms.ts';
import { benign, faulty, op, type VariantSpec } from '../variant.ts';

/** Builds the idp variants (stateful transforms get fresh state on every call). */
export function idpVariants(): VariantSpec[] {
  return [
    faulty('idp.aud.not-checked', 'AUTH-IDP-AUDIENCE', "an access token whose aud is not the company's configured app id is accepted", {
      transform: acceptInsteadOf('ERR-IDP-APP-NOT-REGISTERED', ['authorizeUser']),
    }),
    // Section 7 has no row for an aud that names no application of the company: 401 is a reading the
    // spec allows beside the 500 row, so this variant must stay clean.
    benign('idp.unknown-aud.401', 'an access token whose aud names no registered app answers 401 ErrorPermissionDenied (section 7 has no aud-mismatch row)', {
      transform: onRule('ERR-IDP-APP-NOT-REGISTERED', (b, res) => {
        restatus(b, res, 401);
        b.error_reason = 'ErrorPermissionDenied';
      }, IDP_OPS),
    }),
    faulty('idp.app-not-registered.400', 'ERR-IDP-APP-NOT-REGISTERED', 'an unregistered provider app answers 400 (validation) instead of 500 ErrorConfigurationInvalid', {
      transform: onRule('ERR-IDP-APP-NOT-REGISTERED', (b, res) => {
        restatus(b, res, 400);
        b.error_reason = 'ErrorInvalidField';
      }, IDP_OPS),
    }),
    faulty('idp.id-token-expired.accepted', 'ERR-IDP-ID-TOKEN-EXPIRED', 'an expired identity token is accepted', {
      transform: acceptInsteadOf('ERR-IDP-ID-TOKEN-EXPIRED', IDP_OPS),
    }),
    faulty('idp.linked-accounts.not-required', 'ERR-IDP-LINKED-ACCOUNTS-MISSING', 'an identity token without linked_accounts is accepted', {
      transform: acceptInsteadOf('ERR-IDP-LINKED-ACCOUNTS-MISSING', IDP_OPS),
    }),
    faulty('idp.access-signature.wrong-reason', 'ERR-IDP-ACCESS-TOKEN-SIGNATURE', 'a bad access-token signature answers reason ErrorExpired', {
      transform: onRule('ERR-IDP-ACCESS-TOKEN-SIGNATURE', (b) => void (b.error_reason = 'ErrorExpired'), IDP_OPS),
    }),
    faulty('idp.identity-header-missing.401', 'ERR-IDP-IDENTITY-HEADER-MISSING', 'a missing Identity header answers 401 instead of 400', {
      transform: onRule('ERR-IDP-IDENTITY-HEADER-MISSING', (b, res) => restatus(b, res, 401), IDP_OPS),
    }),
    faulty('idp.identifiers-incomplete.401', 'ERR-IDP-IDENTIFIERS-INCOMPLETE', 'linked accounts without email or wallet answer 401 instead of 400', {
      transform: onRule('ERR-IDP-IDENTIFIERS-INCOMPLETE', (b, res) => restatus(b, res, 401), IDP_OPS),
    }),
    // Section 4: retail registration answers "id (user UUID)" and rule 5 "returns only id"; the kit's
    // userIdFrom also reads user_id, so auth.idp.exchange requires id itself.
    faulty('idp.retail.user-id-instead-of-id', 'ENDPOINT-RETAIL-REGISTER', `${op('registerRetailUser')} answers user_id instead of id`, {}, {
      response(req, res) {
        const body = asRecord(res.json);
        if (req.operationId !== 'registerRetailUser' || res.status < 200 || res.status >= 300 || typeof body?.id !== 'string') return;
        const { id, ...rest } = body;
        return proxyJson(res, { ...rest, user_id: id });
      },
    }),
  ];
}

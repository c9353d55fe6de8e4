// Identity-provider exchange (section 5 and its section 7 table).

import { IDP_OPS } from '../ops.ts';
import { proxyJson } from '../proxy-edits.ts';
import { asRecord, onRule, restatus, acceptInsteadOf } from '../transforms.ts';
import { benign, faults, faulty, op, type VariantSpec } from '../variant.ts';

/** Builds the idp variants (stateful transforms get fresh state on every call). */
export function idpVariants(): VariantSpec[] {
  return [
    faulty('idp.aud.not-checked', 'AUTH-IDP-AUDIENCE', "an access token whose aud is not the company's configured app id is accepted", {
      transform: acceptInsteadOf('ERR-IDP-APP-NOT-REGISTERED', ['authorizeUser']),
    }),
    // Section 7 has no row for an aud that names no application the server knows: 401 is a reading the
    // spec allows beside the 500 row (reading refused-401), so this variant must stay clean. An
    // application configured and then cleared still answers the 500 row under it.
    benign('idp.unknown-aud.401', 'an access token whose aud names an application the server never knew answers 401 ErrorPermissionDenied (section 7 has no aud-mismatch row); a company without its app configured answers the 500 row', faults('idp.unknown-aud-401')),
    // Issue 33 item 6: a company whose provider app ID is not configured (set up through control
    // clearIdpConfig) is the 500 row itself, so a 401 there fails.
    faulty('idp.app-not-configured.401', 'ERR-IDP-APP-NOT-REGISTERED', 'a provider app ID configured for no company answers 401 ErrorPermissionDenied instead of 500 ErrorConfigurationInvalid', {
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

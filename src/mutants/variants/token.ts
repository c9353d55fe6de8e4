// Token endpoint: the section 7 token table, the token response (section 4/5) and its validity (section 8).

import { isObject, onOk, onRule, restatus } from '../transforms.ts';
import { faulty, faults, type VariantSpec } from '../variant.ts';

/** Builds the token variants (stateful transforms get fresh state on every call). */
export function tokenVariants(): VariantSpec[] {
  return [
    faulty('token.client-id-missing.wrong-message', 'ERR-TOKEN-CLIENT-ID-MISSING', 'client_id missing answers the message "client_id is required" (not the section 7 text)', {
      transform: onRule('ERR-TOKEN-CLIENT-ID-MISSING', (b) => void (b.error_description = 'client_id is required'), ['createToken']),
    }),
    faulty('token.client-secret-missing.401', 'ERR-TOKEN-CLIENT-SECRET-MISSING', 'client_secret missing answers 401 instead of 400', {
      transform: onRule('ERR-TOKEN-CLIENT-SECRET-MISSING', (b, res) => restatus(b, res, 401), ['createToken']),
    }),
    faulty('token.grant-type.not-checked', 'ERR-TOKEN-GRANT-TYPE-INVALID', 'any grant_type is accepted', faults('token.accept-any-grant-type')),
    faulty('token.unknown-client.400', 'ERR-TOKEN-UNKNOWN-CLIENT', 'an unknown client_id answers 400 (validation) instead of 401', {
      transform: onRule('ERR-TOKEN-UNKNOWN-CLIENT', (b, res) => restatus(b, res, 400), ['createToken']),
    }),
    faulty('token.wrong-secret.wrong-message', 'ERR-TOKEN-WRONG-SECRET', 'a wrong client_secret of a known client answers "Invalid client secret"', {
      transform: onRule('ERR-TOKEN-WRONG-SECRET', (b) => void (b.error_description = 'Invalid client secret'), ['createToken']),
    }),
    faulty('token.no-secret.wrong-reason', 'ERR-TOKEN-NO-SECRET-CONFIGURED', 'a client with no secret configured gets reason ErrorNotSupported instead of ErrorPermissionDenied', {
      transform: onRule('ERR-TOKEN-NO-SECRET-CONFIGURED', (b) => void (b.error_reason = 'ErrorNotSupported'), ['createToken']),
    }),
    faulty('token.company-type.400', 'ERR-TOKEN-COMPANY-TYPE', 'the company-type restriction answers 400 instead of 401', {
      transform: onRule('ERR-TOKEN-COMPANY-TYPE', (b, res) => restatus(b, res, 400), ['createToken']),
    }),
    faulty('token.response.token-type-jwt', 'AUTH-S2S-TOKEN-RESPONSE', 'the token response carries token_type "JWT" instead of "Bearer"', {
      transform: onOk(['createToken'], (b) => void (isObject(b) && (b.token_type = 'JWT'))),
    }),
    faulty('token.validity.one-hour', 'LIMIT-S2S-TOKEN-VALIDITY', 'S2S tokens are valid for 3600 s instead of 172800 s', faults('token.wrong-validity')),
  ];
}

// User tokens: issuance (section 5) and the section 7 rows for requests using a user token.

import { IDP_OPS, USER_READS, isIn } from '../ops.ts';
import { resignedToken } from '../proxy-edits.ts';
import { acceptInsteadOf, isObject, JSON_TYPE, onOk, onRule, restatus, rewriteObject } from '../transforms.ts';
import { faults, faulty, op, type VariantSpec } from '../variant.ts';

/** A Bearer JWT whose claims carry no azp: a user token (S2S tokens name their client in azp). */
export function isUserToken(auth: string | string[] | undefined): boolean {
  const m = typeof auth === 'string' ? /^Bearer ([^.]+)\.([^.]+)\./.exec(auth) : null;
  if (!m) return false;
  try {
    return JSON.parse(Buffer.from(m[2], 'base64url').toString()).azp === undefined;
  } catch {
    return false;
  }
}

/** The claims of a Bearer JWT, if the header carries one. */
function bearerClaims(auth: string | string[] | undefined): Record<string, unknown> | undefined {
  const m = typeof auth === 'string' ? /^Bearer ([^.]+)\.([^.]+)\./.exec(auth) : null;
  if (!m) return undefined;
  try {
    const c: unknown = JSON.parse(Buffer.from(m[2], 'base64url').toString());
    return typeof c === 'object' && c !== null ? (c as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Builds the user-token variants (stateful transforms get fresh state on every call). */
export function userTokenVariants(): VariantSpec[] {
  return [
    faulty('user-token.expiry.not-checked', 'ERR-USER-TOKEN-EXPIRED', 'an expired user token is accepted on user reads', {
      transform: acceptInsteadOf('ERR-USER-TOKEN-EXPIRED', USER_READS),
    }),
    faulty('user-token.signature.400', 'ERR-USER-TOKEN-SIGNATURE', 'a user token with a bad signature answers 400 instead of 401', {
      // The reference renders one signature row for both token kinds (ERR-S2S-SIGNATURE-INVALID, same
      // status, reason and message): select the answers to user tokens (no azp claim) on user reads.
      transform: rewriteObject((req, res) => res.ruleId === 'ERR-S2S-SIGNATURE-INVALID' && isIn(USER_READS, req.operationId) && isUserToken(req.headers.authorization), (b, res) => restatus(b, res, 400)),
    }),
    faulty('user-token.email-claim.not-required', 'ERR-USER-TOKEN-EMAIL-MISSING', 'a user token without the email claim is accepted', {
      transform: acceptInsteadOf('ERR-USER-TOKEN-EMAIL-MISSING', USER_READS),
    }),
    faulty('user-token.address-claim.wrong-message', 'ERR-USER-TOKEN-ADDRESS-MISSING', 'a user token without the address claim answers "User wallet claim is missing"', {
      transform: onRule('ERR-USER-TOKEN-ADDRESS-MISSING', (b) => void (b.error_description = 'User wallet claim is missing'), USER_READS),
    }),
    faulty('user-token.user-id-claim.wrong-reason', 'ERR-USER-TOKEN-USER-ID-MISSING', 'a user token without the user id claim answers reason ErrorPermissionDenied', {
      transform: onRule('ERR-USER-TOKEN-USER-ID-MISSING', (b) => void (b.error_reason = 'ErrorPermissionDenied'), USER_READS),
    }),
    // Issue 23 "rows on every operation they apply to": each broken on one write the old sampling (the
    // rule's user reads plus one GET) never chose.
    faulty('user-token.expiry.not-checked-on-card-create', 'ERR-USER-TOKEN-EXPIRED', `${op('createVirtualCard')} alone accepts an expired user token`, {
      transform: acceptInsteadOf('ERR-USER-TOKEN-EXPIRED', ['createVirtualCard']),
    }),
    faulty('user-token.address-claim.wrong-reason-on-statement', 'ERR-USER-TOKEN-ADDRESS-MISSING', `${op('getFullStatement')} alone answers a user token without the address claim with reason ErrorPermissionDenied`, {
      transform: onRule('ERR-USER-TOKEN-ADDRESS-MISSING', (b) => void (b.error_reason = 'ErrorPermissionDenied'), ['getFullStatement']),
    }),
    // Issue 33 "rules on every route they govern": broken on a card action with a path parameter, which
    // the rows left out before (the sweep reaches it with the shared card's id).
    faulty('user-token.expiry.not-checked-on-card-close', 'ERR-USER-TOKEN-EXPIRED', `${op('closeCard')} alone accepts an expired user token (and closes the card)`, {
      transform: acceptInsteadOf('ERR-USER-TOKEN-EXPIRED', ['closeCard']),
    }),
    // Issue 13 "skips that hide failures": the claim rows used to skip when no claim carried the value.
    faulty('user-token.issued-without-email-claim', 'ERR-USER-TOKEN-EMAIL-MISSING', 'user tokens are issued without the email claim and accepted without it', faults('user-token.skip-claims'), resignedToken('authorizeUser', 'user_token_signing_secret', (c) => void delete c.email)),
    // Issue 33 item 3: user-token auth wired on the user reads alone; every other route refuses a user
    // token as if its signature were bad (section 5 step 4: the client calls any route with it).
    faulty('user-token.use.reads-only', 'AUTH-USER-TOKEN-USE', `a user token is taken on ${op('getUserV1')} and ${op('getUserV2')} only; every other route refuses it with 401 ErrorPermissionDenied`, {
      transform: (req, res) => {
        // The reference's user tokens name their user in user_id (S2S tokens without azp and provider tokens do not).
        if (req.server !== 'api' || !req.operationId || req.operationId.startsWith('control:') || isIn(USER_READS, req.operationId) || isIn(IDP_OPS, req.operationId) || typeof bearerClaims(req.headers.authorization)?.user_id !== 'string') return;
        res.status = 401;
        res.headers = { 'content-type': JSON_TYPE };
        res.body = JSON.stringify({ error_reason: 'ErrorPermissionDenied', error_description: 'user tokens are accepted on the user reads only', error_category: { category: 'CategoryUnauthorized', http_status_code: 401 }, error_details: [] });
        delete res.ruleId;
      },
    }),
    faulty('user-token.issuance.no-expires-at', 'AUTH-USER-TOKEN-ISSUANCE', `${op('authorizeUser')} returns no expires_at`, {
      transform: onOk(['authorizeUser'], (b) => void (isObject(b) && delete b.expires_at)),
    }),
  ];
}

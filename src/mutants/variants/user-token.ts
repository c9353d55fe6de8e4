// User tokens: issuance (section 5) and the section 7 rows for requests using a user token.

import { createHmac } from 'node:crypto';
import { USER_READS } from '../ops.ts';
import { proxyJson } from '../proxy-edits.ts';
import { acceptInsteadOf, is2xx, onOk, onRule, restatus, rewrite } from '../transforms.ts';
import { faulty, faults, type VariantSpec } from '../variant.ts';

/** A Bearer JWT whose claims carry no azp: a user token (S2S tokens name their client in azp). */
function isUserToken(auth: string | string[] | undefined): boolean {
  const m = typeof auth === 'string' ? /^Bearer ([^.]+)\.([^.]+)\./.exec(auth) : null;
  if (!m) return false;
  try {
    return JSON.parse(Buffer.from(m[2], 'base64url').toString()).azp === undefined;
  } catch {
    return false;
  }
}

/**
 * Re-signs the user token of an authorizeUser answer without the claim `name` (the reference's own claim
 * name: the spec does not show it). With user-token.skip-claims the server then issues and accepts tokens
 * lacking the claim, so no token it issues can ever draw the section 7 row.
 */
function issueWithoutClaim(name: string) {
  return {
    response(req: { operationId?: string }, res: { status: number; json?: any; headers: Record<string, string>; body: string }, ctx: { profile: { user_token_signing_secret?: string } }) {
      const secret = ctx.profile.user_token_signing_secret;
      if (req.operationId !== 'authorizeUser' || !is2xx(res.status) || typeof res.json?.access_token !== 'string' || !secret) return;
      const [h, p] = res.json.access_token.split('.');
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      delete claims[name];
      const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
      const sig = createHmac('sha256', Buffer.from(secret)).update(`${h}.${body}`).digest('base64url');
      return proxyJson(res, { ...res.json, access_token: `${h}.${body}.${sig}` });
    },
  };
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
      transform: rewrite((req, res) => res.ruleId === 'ERR-S2S-SIGNATURE-INVALID' && USER_READS.includes(req.operationId ?? '') && isUserToken(req.headers.authorization), (b, res) => restatus(b, res, 400)),
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
    // Issue 13 "skips that hide failures": the claim rows used to skip when no claim carried the value.
    faulty('user-token.issued-without-email-claim', 'ERR-USER-TOKEN-EMAIL-MISSING', 'user tokens are issued without the email claim and accepted without it', faults('user-token.skip-claims'), issueWithoutClaim('email')),
    faulty('user-token.issuance.no-expires-at', 'AUTH-USER-TOKEN-ISSUANCE', 'POST /api/v1/user/authorize returns no expires_at', {
      transform: onOk(['authorizeUser'], (b) => void delete b.expires_at),
    }),
  ];
}

// 3DS challenges (section 3, section 7 other rules).

import { THREE_DS, isIn } from '../ops.ts';
import { rewriteObject, restatus } from '../transforms.ts';
import { faulty, faults, type VariantSpec } from '../variant.ts';

/** Builds the threeds variants (stateful transforms get fresh state on every call). */
export function threedsVariants(): VariantSpec[] {
  return [
    faulty('3ds.replay.accepted', 'STATE-3DS-NO-REPLAY', 'a decided 3DS challenge can be decided again', faults('3ds.allow-replay')),
    faulty('3ds.expiry.ignored', 'STATE-3DS-EXPIRY', 'expired 3DS challenges can still be decided', faults('3ds.ignore-expiry')),
    // Issue 33 item 9: "never 401" holds for a bad token too (reading bad-token-not-401); this used to be
    // a benign variant under the reading bad-token-401, which let a 401 pass with a warning.
    faulty('3ds.bad-token.401', 'STATE-3DS-NEVER-401', 'approve/decline answer the section 7 S2S/user-token 401 row when the token is rejected (expired, bad signature)', faults('3ds.auth-401')),
    faulty('3ds.not-found.401', 'STATE-3DS-NEVER-401', 'approve/decline answer a refused lookup with 401 instead of 400', {
      transform: rewriteObject((req, res) => isIn(THREE_DS, req.operationId) && res.status === 400, (b, res) => {
        restatus(b, res, 401);
        b.error_reason = 'ErrorPermissionDenied';
      }),
    }),
    faulty('3ds.other-user.decided', 'STATE-3DS-CALLER-SCOPED', "another user's 3DS challenge can be decided", faults('3ds.other-user')),
    faulty('3ds.not-found.wrong-reason', 'ERR-3DS-NOT-FOUND', 'a refused 3DS lookup answers reason ErrorInvalidField instead of ErrorNotFound', {
      transform: rewriteObject((req, res, b) => isIn(THREE_DS, req.operationId) && res.status === 400 && b.error_reason === 'ErrorNotFound', (b) => void (b.error_reason = 'ErrorInvalidField')),
    }),
  ];
}

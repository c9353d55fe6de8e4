// Token endpoint rate limiting (section 8, the 429 row).

import { rewriteObject, restatus } from '../transforms.ts';
import { benign, faulty, faults, type VariantSpec } from '../variant.ts';

/** Builds the ratelimit variants (stateful transforms get fresh state on every call). */
export function ratelimitVariants(): VariantSpec[] {
  return [
    // The spec gives no numeric limit: a limit above the probe's bounds is "not reached" (a warning naming
    // the bound and quoting section 8, LIMIT-TOKEN-RATE-LIMIT reading not-reached; a failure only under
    // --strict), so a target that never answers 429 within the bounds stays clean.
    benign('ratelimit.above-probe', 'the token endpoint never answers 429 within the probe bounds (a limit higher than the probe)', faults('ratelimit.disabled')),
    faulty('ratelimit.wrong-category', 'ERR-RATE-LIMITED', '429 answers carry CategoryValidationFailure instead of CategoryTransientFailure', {
      transform: rewriteObject((_req, res) => res.status === 429, (b) => void (b.error_category = { category: 'CategoryValidationFailure', http_status_code: 429 })),
    }),
    faulty('ratelimit.500-under-load', 'LIMIT-TOKEN-RATE-LIMIT', 'over the limit the token endpoint answers 500 instead of 429', {
      transform: rewriteObject((_req, res) => res.status === 429, (b, res) => {
        restatus(b, res, 500);
        b.error_reason = 'ErrorInternal';
        b.error_description = 'Internal error';
        delete res.headers['retry-after'];
      }),
    }),
  ];
}

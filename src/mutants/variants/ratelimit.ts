// Token endpoint rate limiting (section 8, the 429 row).

import { rewrite, restatus } from '../transforms.ts';
import { faulty, faults, type VariantSpec } from '../variant.ts';

/** Builds the ratelimit variants (stateful transforms get fresh state on every call). */
export function ratelimitVariants(): VariantSpec[] {
  return [
    faulty('ratelimit.disabled', 'LIMIT-TOKEN-RATE-LIMIT', 'the token endpoint never answers 429', faults('ratelimit.disabled')),
    faulty('ratelimit.wrong-category', 'ERR-RATE-LIMITED', '429 answers carry CategoryValidationFailure instead of CategoryTransientFailure', {
      transform: rewrite((_req, res) => res.status === 429, (b) => void (b.error_category = { category: 'CategoryValidationFailure', http_status_code: 429 })),
    }),
    faulty('ratelimit.500-under-load', 'LIMIT-TOKEN-RATE-LIMIT', 'over the limit the token endpoint answers 500 instead of 429', {
      transform: rewrite((_req, res) => res.status === 429, (b, res) => {
        restatus(b, res, 500);
        b.error_reason = 'ErrorInternal';
        b.error_description = 'Internal error';
        delete res.headers['retry-after'];
      }),
    }),
  ];
}

// Pending variants: faults no check catches yet, or freedoms a check still refuses. They are not in
// the default bank (npm test runs it and must stay green); `selftest --area pending` runs them, and
// `rules --json` lists them per rule. Each moves to its area once the check side is on main.

import { every429 } from '../transforms.ts';
import { benign, type VariantSpec } from '../variant.ts';

export function pendingVariants(): VariantSpec[] {
  return [
    // Issue 14: 429 on endpoints other than the token endpoint, within the client's backoff.
    // errors.s2s.signature-invalid sends its probe without retries and takes the 429 as the answer.
    benign('benign.429.other-endpoints', 'every 9th read (GET) answers 429 with Retry-After: 1, within the client\'s backoff', {
      transform: every429(9, (req) => req.method === 'GET' && req.server === 'api' && !req.operationId?.startsWith('control:'), () => '1'),
    }),
    // Issue 14: seconds of latency within the budget; a check's time limit must follow its requests.
    benign('benign.latency-2s', 'every response takes 2 s (within the 3 s selftest budget)', { latencyMs: 2000 }),
  ];
}

// Opt-in variants too slow for the default bank that npm test runs (`selftest --area slow`). They
// prove the same properties as their bounded twins in the default bank, at full strength.

import { benign, type VariantSpec } from '../variant.ts';

export function slowVariants(): VariantSpec[] {
  return [
    // Twin of benign.latency-2s.every-16th (freedoms): 2 s on every answer. Measured clean in 731.6 s
    // alone (`node bin/baas-conform.js selftest --area slow`), 12 checks at once since the run only waits.
    { ...benign('benign.latency-2s', 'every response takes 2 s (within the 3 s selftest budget)', { latencyMs: 2000 }), checkConcurrency: 12 },
  ];
}

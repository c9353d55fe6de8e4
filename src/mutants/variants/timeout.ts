// The recommended client timeout (section 8).

import { faulty, type VariantSpec } from '../variant.ts';

/** Builds the timeout variants (stateful transforms get fresh state on every call). */
export function timeoutVariants(): VariantSpec[] {
  return [
    faulty('timeout.wallets.stall', 'LIMIT-REQUEST-TIMEOUT', 'GET /api/v1/wallets never answers', {
      transform: (req) => (req.operationId === 'listWallets' ? new Promise<void>(() => undefined) : undefined),
    }),
  ];
}

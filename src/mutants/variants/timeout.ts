// The recommended client timeout (section 8).

import { faulty, op, waiting, type VariantSpec } from '../variant.ts';

/** Builds the timeout variants (stateful transforms get fresh state on every call). */
export function timeoutVariants(): VariantSpec[] {
  return [
    // Every check reading the wallet list waits out the request budget on it.
    waiting(
      faulty('timeout.wallets.stall', 'LIMIT-REQUEST-TIMEOUT', `${op('listWallets')} never answers`, {
        transform: (req) => (req.operationId === 'listWallets' ? new Promise<void>(() => undefined) : undefined),
      }),
    ),
  ];
}

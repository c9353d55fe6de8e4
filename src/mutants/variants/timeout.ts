// The recommended client timeout (section 8).

import { faulty, op, type VariantSpec } from '../variant.ts';

/** Builds the timeout variants (stateful transforms get fresh state on every call). */
export function timeoutVariants(): VariantSpec[] {
  return [
    faulty('timeout.wallets.stall', 'LIMIT-REQUEST-TIMEOUT', `${op('listWallets')} never answers`, {
      transform: (req) => (req.operationId === 'listWallets' ? new Promise<void>(() => undefined) : undefined),
    }),
  ];
}

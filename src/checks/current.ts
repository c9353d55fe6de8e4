// The check context of the running check, carried through async calls. It lets assertion helpers
// such as `expectSchema(res, op)` reach the model without every call site passing it.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { CheckContext } from './types.ts';

const storage = new AsyncLocalStorage<CheckContext>();

export function runWithContext<T>(ctx: CheckContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(ctx, fn);
}

export function currentContext(): CheckContext | undefined {
  return storage.getStore();
}

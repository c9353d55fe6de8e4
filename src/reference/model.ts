// The model the reference reads: the whole typed model of the project's spec/ (error rows, limits,
// aliases, operations with x-auth, webhooks, state machines), loaded once through the cached loader.

import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';

export type ReferenceModel = Model;

export function referenceModel(): Promise<ReferenceModel> {
  return loadModel();
}

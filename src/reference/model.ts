// The slice of the model the reference server reads: error rows (status, reason, message,
// category) and limits, from the project's spec/ through the model loader.

import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';

export type ReferenceModel = Pick<Model, 'errorRule' | 'categoryFor' | 'rule'>;

/** Loads (once; the loader caches per spec directory) the model the reference reads its error texts and limits from. */
export function referenceModel(): Promise<ReferenceModel> {
  return loadModel();
}

// Public surface of the spec model: one loader, cached per spec directory.
import path from 'node:path';
import { DEFAULT_SPEC_DIR, loadModelFrom } from './load.ts';
import type { Model } from './types.ts';

export type * from './types.ts';
export { DEFAULT_SPEC_DIR };
export { operationLabel, renderSpecText } from './facts.ts';
export { pathPattern } from './operation-at.ts';

const cache = new Map<string, Promise<Model>>();

/** Loads (once per directory) and validates the model under `specDir` (default: the project's spec/). */
export function loadModel(specDir: string = DEFAULT_SPEC_DIR): Promise<Model> {
  const dir = path.resolve(specDir);
  let p = cache.get(dir);
  if (!p) {
    p = loadModelFrom(dir);
    cache.set(dir, p);
    p.catch(() => cache.delete(dir));
  }
  return p;
}

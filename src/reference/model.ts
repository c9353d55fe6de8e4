// The slice of the model the reference server reads: error rows (status, reason, message,
// category) and limits. Uses the lead's loader (src/model) when present; until then a minimal
// adapter reads spec/rules/*.yaml directly (same data, no second copy of any rule text).

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Category, ErrorRule, Model } from '../model/types.ts';

export type ReferenceModel = Pick<Model, 'errorRule' | 'categoryFor' | 'rule'>;

const here = dirname(fileURLToPath(import.meta.url));
const SPEC_DIR = join(here, '..', '..', 'spec');

let cached: Promise<ReferenceModel> | undefined;

/** Loads (once) the model the reference server reads its error texts and limits from. */
export function referenceModel(): Promise<ReferenceModel> {
  return (cached ??= load());
}

async function load(): Promise<ReferenceModel> {
  const loaderFile = join(here, '..', 'model', 'index.ts');
  if (existsSync(loaderFile)) {
    const spec = '../model/index.ts';
    const mod = (await import(spec)) as { loadModel(dir?: string): Promise<Model> };
    return mod.loadModel();
  }
  return loadFromYaml();
}

async function loadFromYaml(): Promise<ReferenceModel> {
  const { parse } = await import('yaml');
  const errors = parse(await readFile(join(SPEC_DIR, 'rules', 'errors.yaml'), 'utf8')) as any;
  const limits = parse(await readFile(join(SPEC_DIR, 'rules', 'limits.yaml'), 'utf8')) as any;
  const categories = errors.categories as { category: Category; status: number }[];
  const categoryFor = (status: number): Category | null => categories.find((c) => c.status === status)?.category ?? null;
  const rules = new Map<string, any>();
  for (const r of errors.rules) {
    rules.set(r.id, { kind: 'error', section: '7', summary: r.cause, testable: true, source: { file: 'rules/errors.yaml', pointer: '' }, category: categoryFor(r.status), ...r });
  }
  for (const l of limits.limits) rules.set(l.id, { kind: 'limit', ...l });
  const rule = (id: string) => {
    const r = rules.get(id);
    if (!r) throw new Error(`unknown rule ${id}`);
    return r;
  };
  return { rule, errorRule: (id: string) => rule(id) as ErrorRule, categoryFor };
}

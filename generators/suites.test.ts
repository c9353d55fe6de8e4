import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, cp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateSuites, planSuites, checkIdFor, areaOf } from './suites.ts';
import { loadModel } from '../src/model/index.ts';
import { loadModelFrom, DEFAULT_SPEC_DIR } from '../src/model/load.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function dirFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of (await readdir(dir)).sort()) if (f.endsWith('.ts')) out.set(f, await readFile(path.join(dir, f), 'utf8'));
  return out;
}

describe('generateSuites', () => {
  it('matches the committed suites/generated (run `npm run generate` after changing spec/rules or drivers)', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'suites-gen-'));
    try {
      await generateSuites(undefined, tmp);
      const fresh = await dirFiles(tmp);
      const committed = await dirFiles(path.join(ROOT, 'suites/generated'));
      expect([...committed.keys()]).toEqual([...fresh.keys()]);
      for (const [name, text] of fresh) expect(committed.get(name), `suites/generated/${name} is stale`).toBe(text);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it.skipIf(!existsSync(path.join(ROOT, 'generators/types.ts')))('matches the committed src/generated types', async () => {
    const { generateTypes } = await import(pathToFileURL(path.join(ROOT, 'generators/types.ts')).href);
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'types-gen-'));
    try {
      await generateTypes(path.join(ROOT, 'spec'), tmp);
      const fresh = await dirFiles(tmp);
      const committed = await dirFiles(path.join(ROOT, 'src/generated'));
      for (const [name, text] of fresh) expect(committed.get(name), `src/generated/${name} is stale`).toBe(text);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it('matches the committed src/generated/ids.ts (RuleId, OperationId, ... unions)', async () => {
    const { renderIds } = await import('./ids.ts');
    const fresh = await renderIds(path.join(ROOT, 'spec'));
    expect(fresh.split('\n')[0]).toMatch(/^\/\/ GENERATED/);
    expect(await readFile(path.join(ROOT, 'src/generated/ids.ts'), 'utf8'), 'src/generated/ids.ts is stale: run `npm run generate`').toBe(fresh);
  });

  it('is deterministic', async () => {
    const a = await mkdtemp(path.join(os.tmpdir(), 'suites-a-'));
    const b = await mkdtemp(path.join(os.tmpdir(), 'suites-b-'));
    try {
      await generateSuites(undefined, a);
      await generateSuites(undefined, b);
      expect(await dirFiles(a)).toEqual(await dirFiles(b));
    } finally {
      await rm(a, { recursive: true, force: true });
      await rm(b, { recursive: true, force: true });
    }
  });

  it('covers every testable rule with a check (its own or through alsoCovers)', async () => {
    const model = await loadModel();
    const plan = await planSuites(model);
    const covered = new Set([...plan.values()].flat().flatMap((c) => c.rules));
    const missing = model.rules.filter((r) => r.testable && !covered.has(r.id)).map((r) => r.id);
    expect(missing).toEqual([]);
  });

  it('derives readable check ids from rule ids', async () => {
    const model = await loadModel();
    const r = model.rule('ERR-TOKEN-CLIENT-ID-MISSING');
    expect(checkIdFor(r, areaOf(r))).toBe('errors.token.client-id-missing');
    const u = model.rule('ERR-USER-TOKEN-EMAIL-MISSING');
    expect(checkIdFor(u, areaOf(u))).toBe('errors.user-token.email-missing');
    const s = model.rule('STATE-SEPA-WRONG-PATH');
    expect(checkIdFor(s, areaOf(s))).toBe('states.sepa.wrong-path');
  });

  it('refuses a testable rule that has no driver', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spec-extra-'));
    try {
      await cp(DEFAULT_SPEC_DIR, dir, { recursive: true });
      const file = path.join(dir, 'rules/limits.yaml');
      const text = await readFile(file, 'utf8');
      await writeFile(file, `${text.trimEnd()}\n  - { id: LIMIT-NEW-THING, key: new_thing, section: "8", operations: [], summary: "A new limit nobody wrote a check for" }\n`);
      const model = await loadModelFrom(dir);
      await expect(planSuites(model)).rejects.toThrow(/LIMIT-NEW-THING.*no driver/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

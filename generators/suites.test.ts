import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, cp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateSuites, planSuites, placementFor } from './suites.ts';
import { renderPlacement } from './placement.ts';
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

  it('matches the committed src/generated/responses.ts (each operation\'s 2xx body type)', async () => {
    const { renderResponses } = await import('./responses.ts');
    const fresh = await renderResponses(path.join(ROOT, 'spec'));
    expect(fresh.split('\n')[0]).toMatch(/^\/\/ GENERATED/);
    // A named 2xx schema becomes its component type; a shared "not shown" answer is OpenObject (unknown).
    expect(fresh).toContain('  createToken: Api.Token;');
    expect(fresh).toContain('  approve3ds: Api.OpenObject;');
    expect(await readFile(path.join(ROOT, 'src/generated/responses.ts'), 'utf8'), 'src/generated/responses.ts is stale: run `npm run generate`').toBe(fresh);
  });

  it('matches the committed src/generated/placement.ts (each rule\'s area, from spec/placement.yaml)', async () => {
    const model = await loadModel();
    const fresh = renderPlacement(model, await placementFor(model));
    expect(await readFile(path.join(ROOT, 'src/generated/placement.ts'), 'utf8'), 'src/generated/placement.ts is stale: run `npm run generate`').toBe(fresh);
  });

  it('places multi-rule checks (suites/models) in the area and section of their first rule', async () => {
    const model = await loadModel();
    const plan = await planSuites(model);
    const sepa = plan.get('states')!.find((c) => c.id === 'states.sepa.model')!;
    expect(sepa.section).toBe(model.rule(sepa.rules[0] as any).section);
    const lifetime = plan.get('limits')!.find((c) => c.id === 'limits.s2s.token-lifetime')!;
    expect(lifetime.title).toContain(`${model.operation('getConfig').method.toUpperCase()} ${model.operation('getConfig').path}`);
  });

  it('refuses a placement naming a rule spec/rules lacks', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spec-place-'));
    try {
      await cp(DEFAULT_SPEC_DIR, dir, { recursive: true });
      const file = path.join(dir, 'placement.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace('ERR-3DS-NOT-FOUND: states', 'ERR-3DS-NOT-FOUNDX: states'));
      await expect(placementFor(await loadModelFrom(dir), dir)).rejects.toThrow(/ERR-3DS-NOT-FOUNDX/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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
    const { checkIdFor } = await placementFor(model);
    expect(checkIdFor(model.rule('ERR-TOKEN-CLIENT-ID-MISSING'))).toBe('errors.token.client-id-missing');
    expect(checkIdFor(model.rule('ERR-USER-TOKEN-EMAIL-MISSING'))).toBe('errors.user-token.email-missing');
    expect(checkIdFor(model.rule('STATE-SEPA-WRONG-PATH'))).toBe('states.sepa.wrong-path');
    // spec/placement.yaml check_ids take precedence over the derivation.
    expect(checkIdFor(model.rule('AUTH-CHAIN-ID-REQUIRED'))).toBe('identity.chain-header.required');
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

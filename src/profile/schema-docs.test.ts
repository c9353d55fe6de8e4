// Every key a profile may hold is documented where editors and newcomers look: each property of
// spec/schemas/profile.schema.json, at any depth (definitions included), has a description and at least
// one example, and every example is valid against that property's own schema. The names the
// descriptions give for webhook_paths and operations keys are the model's, so they cannot drift.

import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import type { Model, OperationId } from '../model/types.ts';
import { loadSchema } from './validate.ts';

interface Node {
  description?: unknown;
  examples?: unknown;
  properties?: Record<string, Node>;
  items?: Node;
  additionalProperties?: Node | boolean;
  definitions?: Record<string, Node>;
}

const schema = loadSchema('spec/schemas/profile.schema.json') as Node & { $id: string };

/** Every property node with its JSON pointer in the schema. */
function properties(node: Node, at: string): { pointer: string; node: Node }[] {
  const out: { pointer: string; node: Node }[] = [];
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const pointer = `${at}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    out.push({ pointer, node: child }, ...properties(child, pointer));
  }
  if (node.items) out.push(...properties(node.items, `${at}/items`));
  if (node.additionalProperties && typeof node.additionalProperties === 'object') out.push(...properties(node.additionalProperties, `${at}/additionalProperties`));
  for (const [name, def] of Object.entries(node.definitions ?? {})) out.push(...properties(def, `${at}/definitions/${name}`));
  return out;
}

describe('spec/schemas/profile.schema.json documents every key', () => {
  let model: Model;
  beforeAll(async () => {
    model = await loadModel();
  });
  const all = properties(schema, '');

  it('walks the whole schema', () => {
    // Nested keys are found, not just the top level (a walk that found nothing would prove nothing).
    expect(all.map((p) => p.pointer)).toEqual(expect.arrayContaining(['/properties/idp/properties/jwks_listen', '/definitions/client/properties/client_secret', '/properties/fixtures/properties/three_ds_pending/properties/user_id']));
    expect(all.length).toBeGreaterThan(50);
  });

  it('every property has a description and at least one example', () => {
    const missing = all.flatMap(({ pointer, node }) => [
      ...(typeof node.description === 'string' && node.description.trim() ? [] : [`${pointer}: no description`]),
      ...(Array.isArray(node.examples) && node.examples.length ? [] : [`${pointer}: no examples`]),
    ]);
    expect(missing).toEqual([]);
  });

  it('every example is valid against its property\'s schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(schema);
    const invalid: string[] = [];
    for (const { pointer, node } of all) {
      const check = ajv.getSchema(`${schema.$id}#${pointer}`);
      if (!check) throw new Error(`cannot compile ${pointer}`);
      for (const ex of Array.isArray(node.examples) ? node.examples : []) if (!check(ex)) invalid.push(`${pointer}: ${JSON.stringify(ex)}: ${ajv.errorsText(check.errors)}`);
    }
    expect(invalid).toEqual([]);
  });

  it('webhook_paths names every webhook whose path the spec does not show, and its example keys are such webhooks', () => {
    const unshown = model.webhooks.filter((w) => w.path === undefined).map((w) => w.id);
    expect(unshown.length).toBeGreaterThan(0);
    const node = schema.properties!.webhook_paths;
    for (const id of unshown) expect(String(node.description)).toContain(id);
    for (const ex of node.examples as Record<string, string>[]) for (const key of Object.keys(ex)) expect(unshown).toContain(key);
  });

  it('operations examples are operations whose path the spec does not show, with their path parameters as {name}', () => {
    for (const ex of schema.properties!.operations.examples as Record<string, { path: string }>[]) {
      for (const [id, loc] of Object.entries(ex)) {
        const op = model.operations.get(id as OperationId);
        expect({ id, unshown: op?.pathUnspecified }).toEqual({ id, unshown: true });
        const params = [...loc.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        expect(params).toEqual([...op!.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
      }
    }
  });
});

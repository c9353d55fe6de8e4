// A control adapter written as a JS/TS module, for vendors whose simulation needs more than a
// request template (several calls, polling). The module's default export (or `operations` export)
// maps operationIds to async functions `(input, { http, profile }) => result`; the result is the
// operation's success body in the shape spec/control.yaml gives (undefined for 204 operations).

import { pathToFileURL } from 'node:url';
import type { HttpClient } from '../checks/types.ts';
import type { Model } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { controlOperations } from './operations.ts';
import { escapePointer } from './template.ts';
import { ControlAdapterError, controlJson, type ControlAdapter, type ControlAnswer, type ControlInput } from './types.ts';

export type ModuleOperation = (input: ControlInput, tools: { http: HttpClient; profile: ResolvedProfile }) => Promise<unknown>;

export async function loadAdapterModule(file: string, model: Pick<Model, 'control'>, profile: ResolvedProfile): Promise<ControlAdapter> {
  // A user's module: `operations`, or a default export holding them (or being them), is checked below.
  let mod: { operations?: unknown; default?: { operations?: unknown } } | undefined;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (err) {
    throw new ControlAdapterError(file, '', `cannot load the module: ${(err as Error).message.split('\n')[0]}`);
  }
  const table = mod?.operations ?? mod?.default?.operations ?? mod?.default;
  if (!table || typeof table !== 'object') throw new ControlAdapterError(file, '', 'exports no `operations` object (operationId -> async function)');
  const known = controlOperations(model);
  const ops = new Map<string, ModuleOperation>();
  for (const [id, fn] of Object.entries(table)) {
    const at = `/operations/${escapePointer(id)}`;
    if (!known.has(id)) throw new ControlAdapterError(file, at, `unknown control operation ${id}; spec/control.yaml has ${[...known.keys()].join(', ')}`);
    if (typeof fn !== 'function') throw new ControlAdapterError(file, at, 'must be an async function');
    ops.set(id, fn as ModuleOperation);
  }
  return {
    kind: 'module',
    source: `control adapter module ${file}`,
    operations: () => [...ops.keys()],
    supports: (id) => ops.has(id),
    async call(http, id, input): Promise<ControlAnswer> {
      const fn = ops.get(id);
      if (!fn) throw new Error(`control adapter module ${file} does not map ${id}`);
      let json: unknown;
      try {
        json = await fn(input, { http, profile });
      } catch (err) {
        // An Error carrying the vendor's 4xx `status` is a refusal, as an http or file adapter's 4xx
        // answer is (triggerWebhook: "cannot emit that kind"); any other throw stays an adapter fault.
        const status = (err as { status?: unknown })?.status;
        if (typeof status === 'number' && status >= 400 && status < 500) return { status, ok: false, json: undefined, text: String((err as Error).message ?? '') };
        throw err;
      }
      return { status: 200, ok: true, json: controlJson(json), text: json === undefined ? '' : JSON.stringify(json) };
    },
  };
}

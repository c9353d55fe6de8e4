// The control operations, read from spec/control.yaml (the model's `control` document): operationId,
// method, path template, path parameters and the request-body fields. Nothing here restates them;
// adapters and needs take the list from this one reading.

import type { RawSchema } from '../model/raw.ts';
import type { Model } from '../model/types.ts';

export interface ControlOperation {
  /** operationId in spec/control.yaml, e.g. advanceClock; the need of a check is `control:<id>`. */
  id: string;
  method: string;
  /** Path template relative to control_url, e.g. /users/{user_id}/3ds. */
  path: string;
  summary: string;
  /** Path parameters ({user_id}, {activity_id}). */
  pathParams: string[];
  /** Request-body fields (the operation's inputs besides path parameters). */
  bodyFields: string[];
  /** Response-body fields of the success answer (what an adapter's `result` may fill). */
  resultFields: string[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

function fieldsOf(schema: RawSchema | undefined): string[] {
  return schema && typeof schema === 'object' && schema.properties ? Object.keys(schema.properties) : [];
}

const cache = new WeakMap<object, Map<string, ControlOperation>>();

/** Every control operation of the model, keyed by operationId, in spec order. */
export function controlOperations(model: Pick<Model, 'control'>): Map<string, ControlOperation> {
  const doc = model.control;
  if (!doc || typeof doc !== 'object') return new Map();
  const hit = cache.get(doc);
  if (hit) return hit;
  const out = new Map<string, ControlOperation>();
  for (const [path, item] of Object.entries(doc?.paths ?? {})) {
    for (const m of METHODS) {
      const op = item?.[m];
      if (!op?.operationId) continue;
      const ok = Object.entries(op.responses ?? {}).find(([code]) => /^2/.test(code))?.[1];
      out.set(op.operationId, {
        id: op.operationId,
        method: m.toUpperCase(),
        path,
        summary: String(op.summary ?? ''),
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]),
        bodyFields: fieldsOf(op.requestBody?.content?.['application/json']?.schema),
        resultFields: fieldsOf(ok?.content?.['application/json']?.schema),
      });
    }
  }
  cache.set(doc, out);
  return out;
}

/** The need a check declares for one control operation. */
export function controlNeed(operationId: string): `control:${string}` {
  return `control:${operationId}`;
}

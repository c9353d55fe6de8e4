// The route table, from the model: every operation of spec/openapi.yaml (method, path, server, auth
// mode from x-auth, body reading) joined with its handler (handlers/index.ts), and every operation of
// spec/control.yaml under CONTROL_PREFIX. Nothing here names a path the spec shows.

import type { ControlOperationId, Model, Operation, OperationId } from '../model/types.ts';
import { authModeOf } from './auth/index.ts';
import type { BodyMode, Route } from './http.ts';
import type { HandlerSpec } from './handlers/common.ts';
import { CONTROL_HANDLERS, CONTROL_PREFIX } from './handlers/control.ts';
import { DEFAULT_OPERATION_PATHS, HANDLERS } from './handlers/index.ts';
import type { RefState } from './state/index.ts';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Where a served operation lives: the spec's path, or the reference's own for a path the spec does not show. */
export function locationOf(op: { operationId: OperationId; method: string; path: string; pathUnspecified: boolean }): { method: string; path: string } {
  if (!op.pathUnspecified) return { method: op.method, path: op.path };
  const loc = DEFAULT_OPERATION_PATHS[op.operationId];
  if (!loc) throw new Error(`reference: ${op.operationId} is served but the spec shows no path and DEFAULT_OPERATION_PATHS has none`);
  return loc;
}

/** How the served operations whose authentication the spec does not show are protected (ReferenceOptions.pciAuth). */
export interface UnspecifiedAuth {
  mode: 's2s' | 'user' | 'headers';
  /** headers mode: the header and value required. */
  key?: { header: string; value: string };
}

/** The route's mode: the spec's (x-auth), or for an operation whose authentication it does not show on pci_url, `unspecified`'s. */
function routeAuth(op: Operation, model: Model, server: 'api' | 'pci', unspecified: UnspecifiedAuth | undefined): Pick<Route, 'auth' | 'key'> {
  if (!unspecified || !op.authUnspecified || server !== 'pci') return { auth: authModeOf(op, model) };
  if (unspecified.mode === 'headers') return { auth: 'key', key: { header: unspecified.key!.header.toLowerCase(), value: unspecified.key!.value } };
  return { auth: unspecified.mode };
}

/** Routes of one listener ('api' = base_url, 'pci' = card-tokenization environment). */
export function apiRoutes(st: RefState, server: 'api' | 'pci', unspecified?: UnspecifiedAuth): Route[] {
  const model = st.model;
  // Section 7 other rule 1: token failures on these operations never answer 401.
  const never401 = new Set<string>(model.rule('STATE-3DS-NEVER-401').operations);
  // Section 8: the operations limited per IP and per client.
  const rateLimited = new Set<string>(model.rule('LIMIT-TOKEN-RATE-LIMIT').operations);
  const routes: Route[] = [];
  for (const op of model.operations.values()) {
    if (op.server !== server) continue;
    const spec: HandlerSpec | null = HANDLERS[op.operationId];
    if (!spec) continue;
    const { method, path } = locationOf(op);
    const body: BodyMode = spec.body ?? (op.hasRequestBody ? 'json' : 'none');
    routes.push({
      method,
      path,
      operationId: op.operationId,
      ...routeAuth(op, model, server, unspecified),
      body,
      never401: never401.has(op.operationId),
      rateLimited: rateLimited.has(op.operationId),
      handler: (ctx) => spec.run(ctx, st),
    });
  }
  return routes;
}

/** The test-control API (spec/control.yaml) under CONTROL_PREFIX; no authentication. */
export function controlRoutes(st: RefState, model: Model): Route[] {
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(model.control.paths ?? {})) {
    for (const m of HTTP_METHODS) {
      const id = item?.[m]?.operationId as ControlOperationId | undefined;
      if (!id) continue;
      const run = CONTROL_HANDLERS[id];
      if (!run) throw new Error(`spec/control.yaml: ${id} has no handler in src/reference/handlers/control.ts`);
      routes.push({ method: m.toUpperCase(), path: CONTROL_PREFIX + path, operationId: `control:${id}`, auth: 'none', body: 'json', handler: (ctx) => run(ctx, st) });
    }
  }
  return routes;
}

// Where an operation is: its method and path template from the model, or from profile.operations for
// the operations whose path the spec does not show. The one lookup every caller shares (the check
// client's request target, load setup, the load mix) and its reverse (the selftest proxy, compare and the reach
// measure naming a request they see, the --safe guard, HAR replay and the report's curl commands), so a
// relocated operation is found the same way by all of them.

import { pathPattern } from '../model/operation-at.ts';
import type { Model, OperationId } from '../model/types.ts';

/** What the lookup reads of a profile: the locations of operations whose path the spec does not show. */
export interface ProfileLocations {
  operations?: Partial<Record<string, { method?: string; path?: string }>>;
}

export interface OperationLocation {
  /** Upper case. */
  method: string;
  /** Path template below the server's base URL ({name} for path parameters). */
  path: string;
  server: 'api' | 'pci';
}

/**
 * The location of `op`; undefined when the spec does not show its path and the profile does not give
 * it. An operationId the model does not know is a programming error (thrown).
 */
export function locateOperation(model: Pick<Model, 'operations'> | undefined, profile: ProfileLocations, op: OperationId): OperationLocation | undefined {
  const spec = model?.operations.get(op);
  if (!spec) throw new Error(`unknown operationId ${op} (not in spec/openapi.yaml)`);
  if (!spec.pathUnspecified) return { method: spec.method.toUpperCase(), path: spec.path, server: spec.server };
  const loc = profile.operations?.[op];
  if (!loc?.path) return undefined;
  return { method: (loc.method ?? spec.method).toUpperCase(), path: loc.path, server: spec.server };
}

/**
 * The reverse of locateOperation over the same locations: which operation a request's method and path
 * (below the server's base URL) go to. Paths the spec shows are tried first, so a profile location never
 * shadows one; `server` keeps one server's operations.
 */
export function operationMatcher(model: Pick<Model, 'operations'>, profile: ProfileLocations, server?: OperationLocation['server']): (method: string, path: string) => OperationId | undefined {
  const ops = [...model.operations.values()].filter((op) => server === undefined || op.server === server);
  const routes = [...ops.filter((op) => !op.pathUnspecified), ...ops.filter((op) => op.pathUnspecified)].flatMap((op) => {
    const loc = locateOperation(model, profile, op.operationId);
    return loc ? [{ id: op.operationId, method: loc.method, re: pathPattern(loc.path) }] : [];
  });
  return (method, path) => routes.find((r) => r.method === method.toUpperCase() && r.re.test(path))?.id;
}

/**
 * operationMatcher for a request's method and full URL (recorded exchanges, the --safe guard): the path
 * is the URL's pathname. A URL that does not parse goes to no operation.
 */
export function operationAtUrl(model: Pick<Model, 'operations'>, profile: ProfileLocations, server?: OperationLocation['server']): (method: string, url: string) => OperationId | undefined {
  const at = operationMatcher(model, profile, server);
  return (method, url) => {
    let path: string;
    try {
      path = new URL(url, 'http://x').pathname;
    } catch {
      return undefined;
    }
    return at(method, path);
  };
}

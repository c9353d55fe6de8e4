// Where an operation is: its method and path template from the model, or from profile.operations for
// the operations whose path the spec does not show. The one lookup every caller shares (the check
// client's request target, load setup, the load mix), so a relocated operation is found the same way
// by all of them.

import type { Model, OperationId } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';

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
export function locateOperation(model: Pick<Model, 'operations'> | undefined, profile: Pick<ResolvedProfile, 'operations'>, op: OperationId): OperationLocation | undefined {
  const spec = model?.operations.get(op);
  if (!spec) throw new Error(`unknown operationId ${op} (not in spec/openapi.yaml)`);
  if (!spec.pathUnspecified) return { method: spec.method.toUpperCase(), path: spec.path, server: spec.server };
  const loc = profile.operations?.[op];
  if (!loc?.path) return undefined;
  return { method: (loc.method ?? spec.method).toUpperCase(), path: loc.path, server: spec.server };
}

// `--safe` is a promise to the owner of a live sandbox: the run creates nothing and moves no money.
// Marking checks safe is a claim about their code; this guard holds every request against the model
// (x-mutates, x-moves-money on each operation, spec/openapi.yaml and spec/control.yaml) before it is
// sent, so a check that would break the promise is refused on the wire and fails, whatever it is marked.

import type { HttpRequest } from './types.ts';
import type { Model, Operation } from '../model/types.ts';
import { operationAtUrl, type ProfileLocations } from './operation-location.ts';
import type { RequestTarget } from './request-target.ts';

/** A request refused by the --safe guard; it was not sent. */
export class SafeModeRefusal extends Error {
  readonly code = 'SAFE_MODE_REFUSED';
  constructor(readonly reason: string) {
    super(`--safe refused to send ${reason}; a check that needs this request cannot run under --safe (drop --safe, or fix the check's safe mark)`);
    this.name = 'SafeModeRefusal';
  }
}

/** Why the request would break --safe, or undefined when the model says it changes nothing. */
export type SafeGuard = (req: HttpRequest, target: RequestTarget) => string | undefined;

/** A request sent by raw path is matched as the check client locates operations: spec paths, then the profile's locations. */
export function safeGuard(model: Model, profile: ProfileLocations): SafeGuard {
  const operationAt = operationAtUrl(model, profile);
  return (req, target) => {
    const id = req.op ?? operationAt(target.method, target.url.href);
    const op: Operation | undefined = id ? model.operations.get(id) : undefined;
    if (!op || !(op.mutates || op.movesMoney)) return undefined;
    const why = op.movesMoney ? 'x-moves-money' : 'x-mutates';
    return `${op.operationId} (${target.method} ${target.url.pathname}), which the model marks ${why}`;
  };
}

/** Why calling the control operation would break --safe (its x-mutates in spec/control.yaml), or undefined. */
export function controlRefusal(model: Model, operationId: string): string | undefined {
  for (const item of Object.values(model.control.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      if (!op || typeof op !== 'object' || (op as { operationId?: string }).operationId !== operationId) continue;
      return (op as { 'x-mutates'?: boolean })['x-mutates'] ? `control ${operationId} (${method.toUpperCase()}), which spec/control.yaml marks x-mutates` : undefined;
    }
  }
  // An operation spec/control.yaml does not list: nothing says it is harmless.
  return `control ${operationId}, which spec/control.yaml does not list`;
}

// Which operation of the model a request goes to, from its method and path alone: for requests sent by
// raw path, recorded exchanges (HAR, replay, compare) and the --safe guard.

import type { Model, Operation } from './types.ts';

/** `/a/{id}/b` -> /^\/a\/[^/]+\/b$/: each `{param}` segment matches one path segment. */
export function pathPattern(template: string): RegExp {
  const segments = template.split('/').map((seg) => (/^\{[^}]+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}

/** The model's operation for a request (method and path template), if any. Paths the spec does not show never match. */
export function operationOf(model: Model, req: { method: string; url: string }): Operation | undefined {
  let path: string;
  try {
    path = new URL(req.url).pathname;
  } catch {
    return undefined;
  }
  for (const op of model.operations.values()) {
    if (op.pathUnspecified || op.method.toUpperCase() !== req.method.toUpperCase()) continue;
    if (pathPattern(op.path).test(path)) return op;
  }
  return undefined;
}

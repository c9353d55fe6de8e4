// Request bodies for operations whose payload the spec does not show: the driver's defaults, values
// from earlier steps, and the profile's request_templates merged over them (src/profile/request-template.ts).

import type { CheckContext } from '../../src/checks/types.ts';
import { applyRequestTemplate } from '../../src/profile/index.ts';

/**
 * The request body for an operation whose payload the spec does not show: the driver's defaults and the
 * values it took from earlier steps (`fromSteps`, e.g. estimation_id), with profile.request_templates[op]
 * merged over them. A template value of null removes the field; a string "{{name}}" is replaced by the
 * step value `name` (so a target that names a field differently can still receive it).
 */
export function requestBody(ctx: CheckContext, op: string, defaults: Record<string, unknown>, fromSteps: Record<string, unknown> = {}): Record<string, unknown> {
  return applyRequestTemplate(ctx.profile.request_templates?.[op], defaults, fromSteps);
}

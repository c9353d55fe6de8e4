// Request bodies for operations whose payload the spec does not show: the driver's defaults, values
// from earlier steps, and the profile's request_templates merged over them.

import type { CheckContext } from '../../src/checks/types.ts';

/**
 * The request body for an operation whose payload the spec does not show: the driver's defaults and the
 * values it took from earlier steps (`fromSteps`, e.g. estimation_id), with profile.request_templates[op]
 * merged over them. A template value of null removes the field; a string "{{name}}" is replaced by the
 * step value `name` (so a target that names a field differently can still receive it).
 */
export function requestBody(ctx: CheckContext, op: string, defaults: Record<string, unknown>, fromSteps: Record<string, unknown> = {}): Record<string, unknown> {
  const tpl = ctx.profile.request_templates?.[op] ?? {};
  const out: Record<string, unknown> = { ...defaults, ...fromSteps };
  const fill = (v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    const whole = /^\{\{(\w+)\}\}$/.exec(v);
    if (whole && Object.hasOwn(fromSteps, whole[1])) return fromSteps[whole[1]];
    return v.replace(/\{\{(\w+)\}\}/g, (m, name: string) => (Object.hasOwn(fromSteps, name) ? String(fromSteps[name]) : m));
  };
  for (const [k, v] of Object.entries(tpl)) {
    if (v === null) delete out[k];
    else out[k] = fill(v);
  }
  for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
  return out;
}

// profile.request_templates: bodies the spec does not show, merged over a sender's default body. One
// merge for every sender (run's checks, load's mixes and journey steps), so a template means the same
// thing wherever it is sent.

/**
 * `defaults` with `template` merged over it (shallow): a null value removes the field, and a string
 * "{{name}}" is replaced by `fromSteps[name]` (a value an earlier step produced), so a target that names
 * a field differently can still receive it. A placeholder with no such value is sent as written.
 */
export function applyRequestTemplate(template: Record<string, unknown> | undefined, defaults: Record<string, unknown>, fromSteps: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults, ...fromSteps };
  const fill = (v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    const whole = /^\{\{(\w+)\}\}$/.exec(v);
    if (whole && Object.hasOwn(fromSteps, whole[1])) return fromSteps[whole[1]];
    return v.replace(/\{\{(\w+)\}\}/g, (m, name: string) => (Object.hasOwn(fromSteps, name) ? String(fromSteps[name]) : m));
  };
  for (const [k, v] of Object.entries(template ?? {})) {
    if (v === null) delete out[k];
    else out[k] = fill(v);
  }
  for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
  return out;
}

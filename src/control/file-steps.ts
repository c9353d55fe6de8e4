// `steps:` of an adapter file's operation: calls made before the operation's own, in order, each
// `save`-ing parts of its answer (JSON pointers) under new placeholder names that later steps and the
// operation's call use. For vendors whose simulation takes two calls: look up or create the user's card,
// then create the 3DS challenge on it; look up the SEPA account id, then post the provider event on it.
// Anything conditional (create a card only when there is none), arithmetic on values or polling is
// for a JS module adapter (docs/validate-a-vendor-sandbox.md, "YAML or JS").

import type { HttpClient, HttpRequest } from '../checks/types.ts';
import { escapePointer, readPointer, render, renderString, type Vars } from './template.ts';
import { ControlAdapterError, controlJson, type ControlAnswer } from './types.ts';

/** The request part shared by an operation and its steps. */
export interface TemplatedCall {
  method: string;
  path: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  body?: unknown;
  expect_status?: number[];
}

export interface AdapterStep extends TemplatedCall {
  /** New placeholder name -> JSON pointer into this step's answer. */
  save?: Record<string, string>;
}

/** Renders one templated call into a request; undefined when its path needs an input that was not given. */
export function renderCall(call: TemplatedCall, vars: Vars, base: string | undefined, common: Record<string, string> | undefined): HttpRequest | undefined {
  const path = renderString(call.path, vars);
  if (typeof path !== 'string') return undefined;
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries((render(call.query ?? {}, vars) as Record<string, unknown>) ?? {})) query[k] = String(v);
  const headers = { ...(render(common ?? {}, vars) as Record<string, string>), ...(render(call.headers ?? {}, vars) as Record<string, string>) };
  return {
    method: call.method.toUpperCase(),
    path: /^https?:\/\//i.test(path) ? path : `${base}${path}`,
    query,
    headers,
    // A body template left empty by absent inputs is still sent, as {}: the call's shape stays the vendor's.
    body: call.body === undefined ? undefined : (render(call.body, vars) ?? {}),
  };
}

export const isSuccess = (call: TemplatedCall, status: number) => (call.expect_status ? call.expect_status.includes(status) : status >= 200 && status < 300);

/**
 * Runs the steps in order, adding what each saves to `vars`. Undefined when all succeeded; otherwise
 * the answer of the step that did not (not ok), so the caller reports the operation as refused.
 */
export async function runSteps(http: HttpClient, what: string, steps: AdapterStep[], vars: Vars, base: string | undefined, common: Record<string, string> | undefined): Promise<ControlAnswer | undefined> {
  for (const [i, step] of steps.entries()) {
    const req = renderCall(step, vars, base, common);
    if (!req) throw new Error(`${what}: steps/${i}/path needs an input that was not given`);
    const res = await http.send(req);
    const label = `step ${i + 1} of ${steps.length} (${req.method} ${req.path})`;
    if (!isSuccess(step, res.status)) return { status: res.status, ok: false, json: controlJson(res.json), text: `${label} answered HTTP ${res.status}: ${res.text}` };
    for (const [name, pointer] of Object.entries(step.save ?? {})) {
      const v = readPointer(res.json, pointer);
      if (v === undefined || v === null) return { status: res.status, ok: false, json: controlJson(res.json), text: `${label} answered nothing at ${pointer || '""'} to save as ${name}: ${res.text}` };
      vars[name] = v;
    }
  }
  return undefined;
}

/**
 * Checks the steps' templates in order (a step may use what earlier steps save) and returns every name
 * they save, for the operation's own templates. A saved name may not hide an input or a global.
 */
export function checkSteps(
  file: string,
  at: string,
  steps: AdapterStep[],
  checkVars: (template: unknown, at: string, saved: string[]) => void,
  taken: (name: string) => boolean,
): string[] {
  const saved: string[] = [];
  for (const [i, step] of steps.entries()) {
    const here = `${at}/steps/${i}`;
    for (const key of ['path', 'query', 'headers', 'body'] as const) checkVars(step[key], `${here}/${key}`, saved);
    for (const name of Object.keys(step.save ?? {})) {
      if (taken(name) || saved.includes(name)) throw new ControlAdapterError(file, `${here}/save/${escapePointer(name)}`, `${name} is already a placeholder; save under another name`);
    }
    saved.push(...Object.keys(step.save ?? {}));
  }
  return saved;
}

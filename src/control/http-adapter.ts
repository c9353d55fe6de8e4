// Our own control API (spec/control.yaml) over HTTP at profile.control_url: every operation of the
// model, at the model's path, with the body as the operation defines it.

import type { HttpClient } from '../checks/types.ts';
import type { Model } from '../model/types.ts';
import { controlOperations } from './operations.ts';
import { controlJson, type ControlAdapter, type ControlAnswer, type ControlInput } from './types.ts';

export function httpControlAdapter(model: Pick<Model, 'control'>, source = 'profile.control_url'): ControlAdapter {
  const ops = controlOperations(model);
  return {
    kind: 'http',
    source,
    operations: () => [...ops.keys()],
    supports: (id) => ops.has(id),
    async call(http: HttpClient, id: string, input: ControlInput): Promise<ControlAnswer> {
      const op = ops.get(id);
      if (!op) throw new Error(`unknown control operation ${id} (not in spec/control.yaml)`);
      const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        const v = input.params?.[name];
        if (v === undefined) throw new Error(`control ${id}: path parameter ${name} not given`);
        return encodeURIComponent(v);
      });
      const res = await http.send({ server: 'control', method: op.method, path, body: input.body ?? (op.method === 'GET' ? undefined : {}) });
      return { status: res.status, ok: res.status >= 200 && res.status < 300, json: controlJson(res.json), text: res.text };
    },
  };
}

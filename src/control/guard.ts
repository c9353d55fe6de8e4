// The control adapter is the user's (or the sandbox's), not the target's Partner API: whatever goes
// wrong in it is an adapter error, never a verdict on a spec rule. guardAdapter wraps the run's adapter
// so that an exception in its code, an unreachable control endpoint, or a success answer that is not
// in the shape spec/control.yaml gives for the operation becomes a ControlAdapterFault: a prerequisite
// failure of `control:<operationId>` naming no rule, which the runner reports as a blocked check tagged
// as an adapter error. A refusal (non-success status) is returned as is, because some callers read it
// (controlRaw); `adapterRefused` makes the same fault of it for the callers that need success.
// The wrapper also records each clock move for the run's clean-up (clock.ts).

import type { ValidateFunction } from 'ajv';
import { PrerequisiteFailed } from '../checks/prerequisite.ts';
import { isSkipSignal } from '../checks/signals.ts';
import { isTransportError } from '../client/errors.ts';
import type { ControlOperationId } from '../model/types.ts';
import type { Model } from '../model/types.ts';
import { recordClockMove } from './clock.ts';
import type { ControlAdapter, ControlAnswer } from './types.ts';
import { compileSchema } from '../schemas/index.ts';

/** What went wrong in the adapter: its code threw, its endpoint could not be reached, it refused, or it answered the wrong shape. */
export type AdapterProblem = 'threw' | 'unreachable' | 'refused' | 'malformed';

export interface AdapterFaultInfo {
  /** What configured the adapter: "control adapter file x.yaml", "control adapter module x.mjs", "profile.control_url". */
  source: string;
  /** operationId of spec/control.yaml. */
  operation: string;
  problem: AdapterProblem;
}

export class ControlAdapterFault extends PrerequisiteFailed {
  readonly adapter: AdapterFaultInfo;
  constructor(info: AdapterFaultInfo, detail: string) {
    // rules: [] — a broken adapter breaks no rule of the spec (the runner names none for it).
    super(`control:${info.operation}` as `control:${ControlOperationId}`, `${info.source}, operation ${info.operation}: ${detail}`, { rules: [] });
    this.name = 'ControlAdapterFault';
    this.adapter = info;
  }
}

export function isControlAdapterFault(err: unknown): err is ControlAdapterFault {
  return err instanceof ControlAdapterFault || (err instanceof Error && typeof (err as { adapter?: { problem?: unknown } }).adapter?.problem === 'string' && (err as { code?: string }).code === 'CHECK_BLOCKED');
}

const SHOW = 300;
const clip = (s: string) => (s.length > SHOW ? `${s.slice(0, SHOW)}…` : s);

/** The fault for a refused call, for callers that need the operation to succeed. */
export function adapterRefused(adapter: Pick<ControlAdapter, 'source'>, operation: string, res: ControlAnswer): ControlAdapterFault {
  return new ControlAdapterFault({ source: adapter.source, operation, problem: 'refused' }, `answered HTTP ${res.status}${res.text ? `: ${clip(res.text)}` : ''}`);
}

/** The fault for an answer that lacks what the caller needs (beyond what the schema requires). */
export function adapterMalformed(adapter: Pick<ControlAdapter, 'source'>, operation: string, detail: string): ControlAdapterFault {
  return new ControlAdapterFault({ source: adapter.source, operation, problem: 'malformed' }, detail);
}

type Validators = Map<string, ValidateFunction | undefined>;
const cache = new WeakMap<object, Validators>();

/** One validator per operation: its success response's JSON schema in spec/control.yaml (none for a 204). */
function validators(model: Pick<Model, 'control'>): Validators {
  const doc = model.control as { paths?: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>>; components?: object };
  const hit = cache.get(doc);
  if (hit) return hit;
  const out: Validators = new Map();
  for (const item of Object.values(doc?.paths ?? {})) {
    for (const op of Object.values(item ?? {})) {
      if (!op?.operationId) continue;
      const ok = Object.entries(op.responses ?? {}).find(([code]) => /^2/.test(code))?.[1];
      const schema = ok?.content?.['application/json']?.schema;
      // `components` beside the schema so its "#/components/schemas/..." references resolve. No $id:
      // another model's control.yaml (an edited copy in a test) compiles its own. Formats unchecked:
      // the shape of a vendor's answer is judged, not the spelling of a URL in it.
      out.set(op.operationId, schema ? compileSchema({ ...schema, components: doc.components }, { formats: false }) : undefined);
    }
  }
  cache.set(doc, out);
  return out;
}

/** Why a success answer is not in the operation's shape, or undefined when it is (or the operation has no body). */
export function answerProblem(model: Pick<Model, 'control'>, operation: string, res: ControlAnswer): string | undefined {
  const validate = validators(model).get(operation);
  if (!validate) return undefined;
  const body = res.json ?? (res.text ? safeParse(res.text) : undefined);
  if (body === undefined) return `answered no JSON object; spec/control.yaml gives the success answer of ${operation} a body${res.text ? `: ${clip(res.text)}` : ''}`;
  if (validate(body)) return undefined;
  const e = validate.errors?.[0];
  const at = e?.instancePath || '/';
  return `answered ${clip(JSON.stringify(body))}, not the success answer spec/control.yaml gives for ${operation}: ${at} ${e?.message ?? 'is invalid'}`;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Where the run's clock moves are recorded (a target instance: base_url and first client). */
export interface GuardOptions {
  clockKey?: string;
}

/**
 * The adapter as the checks see it: thrown errors (but a skip or the check's own abort) and malformed
 * success answers become ControlAdapterFault; refusals pass through as answers; advanceClock moves
 * that succeeded are recorded under `clockKey`.
 */
export function guardAdapter(adapter: ControlAdapter, model: Pick<Model, 'control'>, opts: GuardOptions = {}): ControlAdapter {
  if ((adapter as { guarded?: boolean }).guarded) return adapter;
  const guarded: ControlAdapter & { guarded: true } = {
    ...adapter,
    guarded: true,
    operations: () => adapter.operations(),
    supports: (id) => adapter.supports(id),
    async call(http, id, input) {
      const info = (problem: AdapterProblem): AdapterFaultInfo => ({ source: adapter.source, operation: id, problem });
      let res: ControlAnswer;
      try {
        res = await adapter.call(http, id, input);
      } catch (err) {
        if (isSkipSignal(err) || (isTransportError(err) && err.code === 'ABORTED') || isControlAdapterFault(err)) throw err;
        if (isTransportError(err)) throw new ControlAdapterFault(info('unreachable'), `${err.code}: ${err.message}`);
        const what = err instanceof Error ? `${err.name}: ${err.message.split('\n')[0]}` : String(err);
        throw new ControlAdapterFault(info('threw'), `threw ${what}`);
      }
      if (!res || typeof res !== 'object' || typeof res.ok !== 'boolean') throw new ControlAdapterFault(info('malformed'), `returned ${clip(String(JSON.stringify(res)))}, not an answer`);
      if (!res.ok) return res;
      const problem = answerProblem(model, id, res);
      if (problem) throw new ControlAdapterFault(info('malformed'), problem);
      if (id === 'advanceClock' && opts.clockKey) recordClockMove(opts.clockKey, Number(input.body?.seconds ?? 0));
      return res;
    },
  };
  return guarded;
}

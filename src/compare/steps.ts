// The steps of one run, as compare pairs them: every exchange a check made with the target's API,
// by check, named by the model's operation. Calls to the test-control API are left out (they set
// up state; the two targets may not even share one control API), and so is every attempt a 429
// made the client retry: the retry is the step.

import { operationMatcher } from '../client/operation-location.ts';
import type { Exchange, RunEvent } from '../events/index.ts';
import type { Model } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/index.ts';
import { normalise } from '../replay/index.ts';
import { COMPARE_LIMITS } from './types.ts';

export interface Step {
  check: string;
  /** operationId, or `METHOD /path` with ids normalised when the model does not know the call. */
  operation: string;
  /** True when `operation` is one of the model's. */
  known: boolean;
  /** HTTP status; undefined on a transport error. */
  status?: number;
  /** Parsed JSON body; undefined when there is none or it is not JSON. */
  json?: unknown;
  hasBody: boolean;
  /** The recorded body was cut at the client's recording bound: not compared. */
  truncated: boolean;
  error?: string;
}

/** The steps of one run, keyed by check, in the order each check made them. */
export type RunSteps = Map<string, Step[]>;

function pathOf(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

function jsonOf(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Names a recorded request: the model's operation, with the profile's locations for paths the spec does not show. */
export function operationNamer(model: Model, profile: ResolvedProfile): (x: Exchange) => { operation: string; known: boolean } | undefined {
  const operationAt = operationMatcher(model, profile);
  const control = profile.control_url?.replace(/\/+$/, '');
  const basePrefix = (pathOf(profile.base_url) ?? '').replace(/\/+$/, '');
  return (x) => {
    const url = x.request.url;
    if (control && (url === control || url.startsWith(`${control}/`))) return undefined;
    let path = pathOf(url);
    if (path === undefined) return undefined;
    if (basePrefix && path.startsWith(`${basePrefix}/`)) path = path.slice(basePrefix.length);
    const method = x.request.method.toUpperCase();
    const id = operationAt(method, path);
    if (id) return { operation: id, known: true };
    return { operation: `${method} ${path.split('/').map(normalise).join('/')}`, known: false };
  };
}

/** Collects a run's steps from its event stream (the `onEvent` of runConformance). */
export class StepRecorder {
  readonly steps: RunSteps = new Map();
  private name?: ReturnType<typeof operationNamer>;
  private kept = 0;
  /** Exchanges past COMPARE_LIMITS.maxExchanges, not kept. */
  dropped = 0;
  constructor(private readonly model: Model) {}

  /** The resolved target (runConformance's onTarget): control-API calls and profile paths are known from here. */
  setTarget(profile: ResolvedProfile): void {
    this.name = operationNamer(this.model, profile);
  }

  onEvent(e: RunEvent): void {
    if (e.type !== 'exchange' || !this.name) return;
    const x = e.exchange;
    const named = this.name(x);
    if (!named) return;
    const list = this.steps.get(x.checkId) ?? [];
    // A retry after 429 replaces the attempt before it: the answer the check went on with is the step.
    const last = list.at(-1);
    if (x.attempt > 1 && last?.operation === named.operation && last.status === 429) list.pop();
    else if (this.kept >= COMPARE_LIMITS.maxExchanges) {
      this.dropped++;
      return;
    } else this.kept++;
    const res = x.response;
    list.push({
      check: x.checkId,
      ...named,
      ...(res ? { status: res.status, json: jsonOf(res.body) } : {}),
      hasBody: !!res?.body,
      truncated: !!res?.truncated,
      ...(x.error ? { error: x.error.code } : {}),
    });
    this.steps.set(x.checkId, list);
  }
}

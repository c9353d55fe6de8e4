// The operations each check reached, from a run's recorded exchanges (the `exchange` events, or the
// entries of its HAR file: `_check` names the check). A request is matched to an operation by method
// and path template; operations whose path the spec does not show are matched by the profile's path.

import type { Model, OperationId } from '../model/types.ts';
import { operationAtUrl } from '../client/operation-location.ts';

/** One recorded request: the check that sent it and where it went. */
export interface ReachedRequest {
  checkId: string;
  method: string;
  url: string;
}

/** Locations of the operations whose path the spec does not show (profile.operations). */
export type ProfilePaths = Record<string, { method?: string; path?: string } | undefined>;

/** Matches a request's method and URL to an operation of the model (src/client's one lookup, shown paths first). */
export function operationMatcher(model: Model, profilePaths: ProfilePaths = {}): (method: string, url: string) => OperationId | undefined {
  return operationAtUrl(model, { operations: profilePaths });
}

/** Check id -> operations its requests reached (requests to no operation of the model are left out). */
export function reachByCheck(model: Model, requests: Iterable<ReachedRequest>, profilePaths: ProfilePaths = {}): Map<string, Set<OperationId>> {
  const match = operationMatcher(model, profilePaths);
  const out = new Map<string, Set<OperationId>>();
  for (const r of requests) {
    const op = match(r.method, r.url);
    if (op) (out.get(r.checkId) ?? out.set(r.checkId, new Set()).get(r.checkId)!).add(op);
  }
  return out;
}

/** The requests of a HAR file of `run --har` (entries carry `_check`); entries without one are skipped. */
export function harRequests(har: unknown): ReachedRequest[] {
  const entries = (har as { log?: { entries?: unknown[] } } | undefined)?.log?.entries;
  if (!Array.isArray(entries)) return [];
  const out: ReachedRequest[] = [];
  for (const e of entries as { _check?: unknown; request?: { method?: unknown; url?: unknown } }[]) {
    if (typeof e?._check === 'string' && typeof e.request?.method === 'string' && typeof e.request.url === 'string') out.push({ checkId: e._check, method: e.request.method, url: e.request.url });
  }
  return out;
}

// Where a request goes. A check names an operation (its method and path come from the model, or from
// profile.operations where the spec does not show the path) or gives a raw path; the server
// (api, pci, control) picks the profile's base URL. A server the profile does not configure skips the
// check instead of failing it: the target may simply not offer that environment.

import type { HttpRequest } from './types.ts';
import { SkipSignal } from '../checks/signals.ts';
import type { Model } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { locateOperation } from './operation-location.ts';

export interface RequestTarget {
  method: string;
  url: URL;
  localAddress?: string;
}

/** Resolves method + URL for a request (op via model/profile, or raw path). */
export function resolveRequestTarget(req: HttpRequest, profile: ResolvedProfile, model: Model | undefined): RequestTarget {
  let method = req.method?.toUpperCase();
  let path = req.path;
  let server = req.server;
  if (req.op) {
    const loc = locateOperation(model, profile, req.op);
    if (!loc) throw new SkipSignal(`profile.operations.${req.op} not given: the spec does not show its path`);
    server ??= loc.server;
    method ??= loc.method;
    path = loc.path;
    path = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const v = req.params?.[name];
      if (v === undefined) throw new Error(`${req.op}: path parameter ${name} not given`);
      return encodeURIComponent(v);
    });
  }
  if (path === undefined) throw new Error('HttpRequest needs op or path');
  let url: URL;
  if (/^https?:\/\//i.test(path)) {
    url = new URL(path);
  } else {
    const base = baseFor(profile, server ?? 'api');
    url = new URL(base + (path.startsWith('/') ? path : `/${path}`));
  }
  for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.append(k, String(v));
  return { method: method ?? 'GET', url, ...(req.localAddress ? { localAddress: req.localAddress } : {}) };
}

function baseFor(profile: ResolvedProfile, server: 'api' | 'pci' | 'control'): string {
  if (server === 'api') return profile.base_url;
  if (server === 'pci') {
    if (!profile.pci_url) throw new SkipSignal('needs the card-tokenization environment: profile.pci_url is not set');
    return profile.pci_url;
  }
  if (!profile.control_url) throw new SkipSignal('needs the test-control API: profile.control_url is not set');
  return profile.control_url;
}

// The public contract of a control adapter written as a JS/TS module (profile.control_adapter naming a
// .js/.mjs/.ts/.mts file). module-adapter.ts loads such a module; these types are what its author
// writes against, exported by the package (`import type { ControlModule } from 'baas-conform'`).
// A worked example: examples/sandbox/vendor-adapter.mjs; the prose: docs/validate-a-vendor-sandbox.md.

import type { HttpRequest, HttpResponse } from '../checks/types.ts';
import type { ControlOperationId } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import type { ControlInput } from './types.ts';

/** One request an adapter sends: give `path` as an absolute URL for the vendor's API. */
export type ControlHttpRequest = Pick<HttpRequest, 'method' | 'path' | 'query' | 'headers' | 'body' | 'rawBody'>;

/**
 * The client an operation sends its requests with: the calling check's own client, so every request is
 * recorded with the check, shown in its report with secrets masked (Bearer values, JWTs, the profile's
 * secrets) and bounded in time and size.
 */
export interface ControlHttp {
  /**
   * Resolves for any HTTP status (deciding what is an error is the adapter's); `json` is undefined when
   * the answer is not JSON. Rejects with a TransportError when the vendor cannot be reached: let it
   * propagate, the check is then reported blocked by control:<operationId>.
   */
  send(req: ControlHttpRequest): Promise<HttpResponse>;
}

/** What an operation gets besides its input. */
export interface ControlModuleTools {
  http: ControlHttp;
  /**
   * The resolved target profile (base_url, clients, ...). An operation that calls card tokenization
   * itself sends what profile.operation_auth.tokenizeCard says: in mode "headers" its `headers`, with
   * {{env.NAME}} already read; `http` adds no credentials of its own (modes "s2s" and "user" need a
   * token the adapter obtains).
   */
  profile: ResolvedProfile;
}

/**
 * One control operation. `input` is `{ params, body }` with the names spec/control.yaml gives the
 * operation's path parameters and request-body fields. Resolve to the operation's success body in the
 * shape spec/control.yaml gives it (undefined for the operations that answer 204): whatever it resolves
 * to counts as success. Throw to report failure (an Error saying what the vendor answered); never
 * resolve to an error body. An Error with a numeric `status` of 400-499 (the vendor's answer) is a
 * refusal, as a 4xx answer is to an http or file adapter: for triggerWebhook, "this target cannot emit
 * that kind", and the checks needing it skip saying so; any other throw reports the check blocked.
 */
export type ControlModuleOperation = (input: ControlInput, tools: ControlModuleTools) => Promise<unknown>;

/** The module: `export const operations = { advanceClock: async (input, tools) => ..., ... }` (or a default export holding it). */
export interface ControlModule {
  /** Keyed by operationId of spec/control.yaml; an unknown key stops the run (exit 2) before any check. */
  operations: Partial<Record<ControlOperationId, ControlModuleOperation>>;
}

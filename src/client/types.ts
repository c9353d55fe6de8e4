// The HTTP vocabulary every mode shares: a request by operation or raw path, an answer, and the client
// that sends one. Below checks and control, so neither depends on the other for it.

import type { OperationId } from '../model/types.ts';

export interface HttpRequest {
  /** Either an operationId (path resolved from the model or the profile) or a raw path. */
  op?: OperationId;
  /** Path parameters for `op`. */
  params?: Record<string, string>;
  method?: string;
  path?: string;
  /** Which origin: api (base_url, default), pci, control, or an absolute URL in `path`. */
  server?: 'api' | 'pci' | 'control';
  query?: Record<string, string | number>;
  headers?: Record<string, string | undefined>;
  /** JSON-serialised unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  /** Do not retry on 429 (the rate-limit check wants to see them). */
  noRetry?: boolean;
  /** Source IP address to connect from (loopback targets: 127.0.0.2, ... for the per-IP rate limit). */
  localAddress?: string;
}

/**
 * One answer. `Body` is unknown until an assertion validated the body: expectSchema(res, op) narrows it
 * to the operation's generated 2xx type (ResponseOf<op>, src/generated/responses.ts).
 */
export interface HttpResponse<Body = unknown> {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON (see `jsonError`). */
  json: Body;
  jsonError?: string;
  durationMs: number;
}

export interface HttpClient {
  /** Sends one request, recording the exchange. Transport failures throw TransportError (the check fails with that cause). */
  send(req: HttpRequest): Promise<HttpResponse>;
  /** Number of requests sent by this check so far. */
  readonly count: number;
}

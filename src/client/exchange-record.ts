// What a report keeps of one attempt: the request and response with every secret masked (profile
// secrets and tokens the target issued), bodies cut to a size a report can carry, and a curl command
// that reproduces the request (its body kept whole up to a larger bound, so the replay is faithful).

import type { HttpResponse } from './types.ts';
import type { Exchange, RecordedRequest, RecordedResponse } from '../events/index.ts';
import { toCurl } from './curl.ts';
import { CLIENT_DEFAULTS } from './defaults.ts';
import type { RequestTarget } from './request-target.ts';
import type { TraceIds } from './trace.ts';

export interface AttemptRecord {
  checkId: string;
  target: RequestTarget;
  /** Headers as sent (unmasked; masked here). */
  headers: Record<string, string>;
  body: string | undefined;
  res: HttpResponse | undefined;
  error: Exchange['error'];
  durationMs: number;
  attempt: number;
  ids: TraceIds | undefined;
}

function truncate(text: string, max: number): { body: string; truncated: boolean } {
  if (Buffer.byteLength(text) <= max) return { body: text, truncated: false };
  return { body: Buffer.from(text).subarray(0, max).toString('utf8'), truncated: true };
}

/**
 * Defines `key` on `o` as computed on first read, then kept as a plain value (enumerable, in the place
 * the key was defined, so JSON and spreads see the same object an eager record would give).
 */
function lazy<K extends keyof Exchange>(o: Exchange, key: K, make: () => Exchange[K]): void {
  const settle = (value: Exchange[K]) => Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(o, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = make();
      settle(value);
      return value;
    },
    set: settle,
  });
}

/**
 * The recorded exchange of one attempt; `mask` hides the run's secrets. The masked copies and the
 * curl command are made when first read: most exchanges of a run (all of a selftest's) are never read,
 * and masking every header and body was a tenth of a run's CPU. Masking later can only mask more (the
 * tokens learned since), never less; what it masks (the headers as sent, the answer) does not change.
 */
export function recordExchange(a: AttemptRecord, mask: (text: string) => string): Exchange {
  const { target, headers, body, res } = a;
  const exchange = { checkId: a.checkId } as Exchange;
  lazy(exchange, 'request', () => {
    const maskedHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) maskedHeaders[k] = mask(`${k}: ${v}`).slice(k.length + 2);
    const request: RecordedRequest = { method: target.method, url: mask(target.url.href), headers: maskedHeaders };
    if (body !== undefined) request.body = truncate(mask(body), CLIENT_DEFAULTS.recordBodyBytes).body;
    return request;
  });
  exchange.durationMs = Math.round(a.durationMs);
  exchange.attempt = a.attempt;
  lazy(exchange, 'curl', () => {
    const curlBody = body === undefined ? undefined : truncate(body, CLIENT_DEFAULTS.curlBodyBytes).body;
    const { 'user-agent': _ua, ...curlHeaders } = headers;
    // A replay is a new request: it must not reuse this attempt's span or request id.
    if (a.ids) for (const h of ['traceparent', 'x-request-id']) delete curlHeaders[h];
    return mask(toCurl(target.method, target.url.href, curlHeaders, curlBody));
  });
  if (res) {
    lazy(exchange, 'response', () => {
      const rh: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) rh[k] = mask(v);
      const t = truncate(mask(res.text), CLIENT_DEFAULTS.recordBodyBytes);
      const response: RecordedResponse = { status: res.status, headers: rh, body: t.body };
      if (t.truncated) response.truncated = true;
      return response;
    });
  }
  if (a.error) exchange.error = a.error;
  if (a.ids) Object.assign(exchange, a.ids);
  return exchange;
}

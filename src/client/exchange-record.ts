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

/** The recorded exchange of one attempt; `mask` hides the run's secrets. */
export function recordExchange(a: AttemptRecord, mask: (text: string) => string): Exchange {
  const { target, headers, body, res } = a;
  const maskedHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) maskedHeaders[k] = mask(`${k}: ${v}`).slice(k.length + 2);
  const url = mask(target.url.href);
  const request: RecordedRequest = { method: target.method, url, headers: maskedHeaders };
  if (body !== undefined) request.body = truncate(mask(body), CLIENT_DEFAULTS.recordBodyBytes).body;
  let response: RecordedResponse | undefined;
  if (res) {
    const rh: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) rh[k] = mask(v);
    const t = truncate(mask(res.text), CLIENT_DEFAULTS.recordBodyBytes);
    response = { status: res.status, headers: rh, body: t.body };
    if (t.truncated) response.truncated = true;
  }
  const curlBody = body === undefined ? undefined : truncate(body, CLIENT_DEFAULTS.curlBodyBytes).body;
  const { 'user-agent': _ua, ...curlHeaders } = headers;
  // A replay is a new request: it must not reuse this attempt's span or request id.
  if (a.ids) for (const h of ['traceparent', 'x-request-id']) delete curlHeaders[h];
  const exchange: Exchange = {
    checkId: a.checkId,
    request,
    durationMs: Math.round(a.durationMs),
    attempt: a.attempt,
    curl: mask(toCurl(target.method, target.url.href, curlHeaders, curlBody)),
  };
  if (response) exchange.response = response;
  if (a.error) exchange.error = a.error;
  if (a.ids) Object.assign(exchange, a.ids);
  return exchange;
}

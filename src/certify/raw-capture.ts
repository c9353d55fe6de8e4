// The exchanges of a certify run as they were on the wire, for the transcript's commitments: the
// run's HAR masks every secret as "***" (reports leave the process), and a commitment must be of the
// value itself. Taken from undici's diagnostics channels, read-only, keyed by the X-Request-Id every
// attempt carries (src/client/trace.ts), so the client is not changed and nothing unmasked is written:
// certify commits these values before any byte reaches the package.

import diagnostics from 'node:diagnostics_channel';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export interface RawExchange {
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders: Record<string, string>;
  responseBody?: string;
}

/** Bytes kept per body: a certificate's answers are small; a huge one is kept as the HAR keeps it. */
const MAX_BODY = 1024 * 1024;
/** Exchanges kept: a certify run is bounded, so is this. */
const MAX_EXCHANGES = 50_000;
/** Body bytes kept in all: past it, answers keep the HAR's (masked, committed as they are) text. */
const MAX_TOTAL = 256 * 1024 * 1024;

interface Pending {
  id: string;
  raw: RawExchange;
  chunks: Buffer[];
  size: number;
}

type UndiciRequest = { headers?: unknown; body?: unknown };

function headerPairs(list: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(list)) return out;
  for (let i = 0; i + 1 < list.length; i += 2) out[String(list[i]).toLowerCase()] = String(list[i + 1]);
  return out;
}

function decode(body: Buffer, encoding: string | undefined): string {
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body).toString('utf8');
    if (encoding === 'deflate') return inflateSync(body).toString('utf8');
    if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  } catch {
    return '';
  }
  return body.toString('utf8');
}

/** Records raw exchanges until stopped; `get(requestId)` once the run is over. */
export class RawCapture {
  private readonly pending = new WeakMap<object, Pending>();
  private readonly done = new Map<string, RawExchange>();
  private total = 0;
  private readonly onCreate = (m: unknown) => {
    const { request } = m as { request: UndiciRequest };
    const requestHeaders = headerPairs(request.headers);
    const id = requestHeaders['x-request-id'];
    if (!id || this.done.size >= MAX_EXCHANGES) return;
    const body = request.body;
    const raw: RawExchange = { requestHeaders, responseHeaders: {} };
    if (typeof body === 'string') raw.requestBody = body;
    else if (Buffer.isBuffer(body)) raw.requestBody = body.toString('utf8');
    this.pending.set(request as object, { id, raw, chunks: [], size: 0 });
  };
  private readonly onHeaders = (m: unknown) => {
    const { request, response } = m as { request: object; response: { statusCode: number; headers: unknown } };
    const p = this.pending.get(request);
    if (!p) return;
    p.raw.status = response.statusCode;
    p.raw.responseHeaders = headerPairs(Array.isArray(response.headers) ? response.headers.map((h) => (Buffer.isBuffer(h) ? h.toString('latin1') : h)) : []);
    // Headers without a body are already a whole answer (a HEAD, an error the body of which is lost).
    this.done.set(p.id, p.raw);
  };
  private readonly onChunk = (m: unknown) => {
    const { request, chunk } = m as { request: object; chunk: Buffer };
    const p = this.pending.get(request);
    if (!p || p.size > MAX_BODY || this.total > MAX_TOTAL) return;
    p.chunks.push(Buffer.from(chunk));
    p.size += chunk.length;
    this.total += chunk.length;
    p.raw.responseBody = decode(Buffer.concat(p.chunks), p.raw.responseHeaders['content-encoding']);
  };

  start(): this {
    diagnostics.subscribe('undici:request:create', this.onCreate);
    diagnostics.subscribe('undici:request:headers', this.onHeaders);
    diagnostics.subscribe('undici:request:bodyChunkReceived', this.onChunk);
    return this;
  }

  stop(): void {
    diagnostics.unsubscribe('undici:request:create', this.onCreate);
    diagnostics.unsubscribe('undici:request:headers', this.onHeaders);
    diagnostics.unsubscribe('undici:request:bodyChunkReceived', this.onChunk);
  }

  get(requestId: string | undefined): RawExchange | undefined {
    return requestId ? this.done.get(requestId) : undefined;
  }
}

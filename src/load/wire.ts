// What the load engine's HTTP/1.1 transport (transport.ts) and the engine (dispatch.ts) exchange, the
// transport's error, and the request bytes: built and checked once per request object, as undici
// would write them.

/** Where an exchange is (a connection, or the queue for one): `abort` fails it there (a connection is dropped). */
export interface Link {
  abort(ex: Exchange, err?: Error): void;
}

/** What the transport drives for one request (dispatch.ts Handler). */
export interface Exchange {
  /** At dispatch, and again when a queued request gets its connection: where to abort it. */
  onConnect(link: Link): void;
  /** The status and the header block (b[from, to): the lines after the status line, latin1; valid during the call); true: hand over the body. */
  onHeaders(status: number, b: Buffer, from: number, to: number): boolean;
  /** A piece of a kept body, b[from, to), valid during the call only; `whole`: the body is this piece alone. */
  onData(b: Buffer, from: number, to: number, whole: boolean): void;
  onComplete(): void;
  onError(err: Error & { code?: string }): void;
}

export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A failure of the transport itself; `code` is what the run counts it by (error_kinds). */
export class TransportError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const BAD_PATH = /[^\u0021-\u00ff]/;
const PAYLOAD = new Set(['POST', 'PUT', 'PATCH']);

/** Encodes requests for one origin; bodiless requests are kept by their headers object and request line. */
export class RequestBytes {
  // Bodiless requests by their headers object (fixed ones, and live ones between token refreshes) and request line.
  private readonly built = new WeakMap<object, Map<string, Buffer>>();
  private last: { headers: object; method: string; path: string; bytes: Buffer } = { headers: {}, method: '', path: '', bytes: Buffer.alloc(0) };

  constructor(private readonly hostLine: string) {}

  /** The request's bytes: built (and its headers checked) once per request object, as undici would write them. */
  bytes(req: WireRequest): Buffer {
    // The last request built: a scenario of one operation sends it every time.
    if (req.headers === this.last.headers && req.path === this.last.path && req.method === this.last.method && req.body === undefined) return this.last.bytes;
    const bodiless = req.body === undefined || req.body === '';
    const line = `${req.method} ${req.path}`;
    let byLine = bodiless ? this.built.get(req.headers) : undefined;
    const kept = byLine?.get(line);
    if (kept) {
      if (req.body === undefined) this.last = { headers: req.headers, method: req.method, path: req.path, bytes: kept };
      return kept;
    }
    // undici's checks: a token method, a path of visible latin1, header values without control characters.
    if (!TOKEN.test(req.method) || req.path[0] !== '/' || BAD_PATH.test(req.path)) throw new TransportError('INVALID_REQUEST', `invalid request line ${JSON.stringify(line)}`);
    let head = `${line} HTTP/1.1\r\n${this.hostLine}connection: keep-alive\r\n`;
    for (const k in req.headers) {
      const v = req.headers[k];
      if (!TOKEN.test(k) || typeof v !== 'string' || BAD_VALUE.test(v)) throw new TransportError('INVALID_HEADER', `invalid request header ${JSON.stringify(k)}`);
      head += `${k}: ${v}\r\n`;
    }
    if (bodiless) {
      const b = Buffer.from(`${head}${PAYLOAD.has(req.method) ? 'content-length: 0\r\n' : ''}\r\n`, 'latin1');
      if (!byLine) this.built.set(req.headers, (byLine = new Map()));
      if (byLine.size < 256) byLine.set(line, b);
      if (req.body === undefined) this.last = { headers: req.headers, method: req.method, path: req.path, bytes: b };
      return b;
    }
    const body = Buffer.from(req.body!);
    return Buffer.concat([Buffer.from(`${head}content-length: ${body.length}\r\n\r\n`, 'latin1'), body]);
  }

}

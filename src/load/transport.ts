// The load engine's HTTP/1.1 client: keep-alive connections to one origin, one request at a time on
// each (no pipelining), the request bytes built once per request object, and a response reader that
// reads only what the engine needs: the status, the framing (Content-Length, chunked, or until close)
// and, for an answer whose body is kept, the header block as text. undici (the run's client) does far
// more per request: validation, a request object, a header array, a buffer per header and events,
// which at load speed is most of the generator's CPU. The framing follows RFC 9112 section 6: no body
// for 1xx, 204, 304 or HEAD; Transfer-Encoding chunked before Content-Length; else until close.
// Anything the reader does not understand fails that request as a transport error and drops the
// connection, never the run.

import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type SecureContext } from 'node:tls';
import { CONNECTION, CONTENT_LENGTH, CRLF, CRLF2, digits, HTTP1, KEEP_ALIVE, MAX_HEAD, named, spells, TRANSFER_ENCODING, trimmed } from './wire-bytes.ts';
import { RequestBytes, TransportError, type Exchange, type Link, type WireRequest } from './wire.ts';

export { TransportError, type Exchange, type Link, type WireRequest } from './wire.ts';

/**
 * A request refused before it is sent fails on a later turn of the event loop, never inside dispatch:
 * the engine answers a failure by sending the next request, and a request refused every time (a token
 * with a line break in it) would otherwise recurse until the stack overflows, with no timer let run.
 */
const later = (ex: Exchange, err: Error) => void setImmediate(() => ex.onError(err));

// Where the reader of an answer is: its header block, a body of known length, chunked framing (a size
// line, the data, the CRLF after it, the trailers), a body read until close, or no body at all.
const HEAD = 0;
const LENGTH = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_END = 4;
const TRAILERS = 5;
const UNTIL_CLOSE = 6;
const DONE = 7;

class Connection implements Link {
  private socket: Socket | undefined;
  private ready = false;
  ex: Exchange | undefined;
  private method = '';
  private state: number = HEAD;
  private left = 0;
  /** The Content-Length of the answer being read. */
  private length = 0;
  private want = false;
  private close = false;
  private stash: Buffer | undefined;

  constructor(private readonly pool: Connections) {}

  send(req: WireRequest, ex: Exchange): void {
    this.ex = ex;
    this.method = req.method;
    this.state = HEAD;
    this.stash = undefined;
    ex.onConnect(this);
    if (this.ex !== ex) return; // aborted at once
    let bytes: Buffer;
    try {
      bytes = this.pool.bytes(req);
    } catch (err) {
      this.ex = undefined;
      this.pool.free(this);
      later(ex, err as Error);
      return;
    }
    if (!this.socket) this.open();
    if (this.ready) this.socket!.write(bytes);
    else this.pending = bytes;
  }

  private pending: Buffer | undefined;

  private open(): void {
    const { host, port, secureContext } = this.pool;
    const onData = (b: Buffer) => {
      if (this.socket !== s) return;
      try {
        this.read(b);
      } catch (err) {
        // A reader of the answer threw (a bug, not the target's doing): that request fails, the run goes on.
        if (this.ex) this.fail(this.ex, err as Error);
        else this.drop();
      }
    };
    // Plain TCP reads into one buffer the pool reuses (no stream, no buffer per read): what is kept past
    // the call (a partial header block, a kept body) is copied. TLS reads come as 'data'.
    const read = this.pool.readBuffer;
    const s = secureContext
      ? tlsConnect({ host, port, secureContext, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] }).on('data', onData)
      : netConnect({ host, port, onread: { buffer: read, callback: (n) => (onData(read.subarray(0, n)), true) } });
    this.socket = s;
    this.ready = false;
    s.setNoDelay(true);
    s.on(secureContext ? 'secureConnect' : 'connect', () => {
      if (this.socket !== s) return;
      this.ready = true;
      if (this.pending) s.write(this.pending);
      this.pending = undefined;
    });
    s.on('error', (err: Error & { code?: string }) => this.socket === s && this.lost(err));
    s.on('close', () => this.socket === s && this.lost(new TransportError('SOCKET_CLOSED', 'the target closed the connection before the answer ended')));
  }

  /** The socket ended or failed: a body read until close is complete; any other exchange on it fails. */
  private lost(err: Error): void {
    const ex = this.ex;
    this.drop();
    if (!ex) return;
    if (this.state === UNTIL_CLOSE) return this.done(ex);
    this.ex = undefined;
    this.pool.free(this);
    ex.onError(err);
  }

  private drop(): void {
    const s = this.socket;
    this.socket = undefined;
    this.ready = false;
    this.pending = undefined;
    s?.destroy();
  }

  abort(ex: Exchange, err?: Error): void {
    this.fail(ex, err ?? new TransportError('ABORTED', 'request aborted'));
  }

  private fail(ex: Exchange, err: Error): void {
    if (this.ex !== ex) return;
    this.ex = undefined;
    this.drop();
    this.pool.free(this);
    ex.onError(err);
  }

  private done(ex: Exchange): void {
    this.ex = undefined;
    if (this.close) this.drop();
    this.pool.free(this);
    ex.onComplete();
  }

  private read(b: Buffer): void {
    let off = 0;
    if (this.stash) {
      b = Buffer.concat([this.stash, b]);
      this.stash = undefined;
    }
    while (off < b.length) {
      const ex = this.ex;
      if (!ex) return this.drop(); // bytes nobody asked for: the connection is not to be trusted
      switch (this.state) {
        case HEAD: {
          const end = b.indexOf(CRLF2, off);
          if (end < 0) {
            if (b.length - off > MAX_HEAD) return this.fail(ex, new TransportError('HEADER_OVERFLOW', `the answer's header block exceeds ${MAX_HEAD} bytes`));
            this.stash = Buffer.from(b.subarray(off));
            return;
          }
          const from = off;
          off = end + 4;
          if (!this.head(ex, b, from, end)) return;
          if ((this.state as number) === DONE) return this.finish(ex, b.length - off);
          break;
        }
        case LENGTH: {
          const n = Math.min(this.left, b.length - off);
          if (this.want) ex.onData(b, off, off + n, n === this.length);
          off += n;
          this.left -= n;
          if (this.left === 0) return this.finish(ex, b.length - off);
          break;
        }
        case UNTIL_CLOSE:
          if (this.want) ex.onData(b, off, b.length, false);
          return;
        case CHUNK_DATA: {
          const n = Math.min(this.left, b.length - off);
          if (this.want) ex.onData(b, off, off + n, false);
          off += n;
          this.left -= n;
          if (this.left === 0) this.state = CHUNK_END;
          break;
        }
        default: {
          // A chunk size line, the CRLF after a chunk's data, or a trailer line: whole lines only.
          const eol = b.indexOf('\r\n', off, 'latin1');
          if (eol < 0) {
            if (b.length - off > MAX_HEAD) return this.fail(ex, new TransportError('BAD_CHUNK', 'a chunk line of the answer never ends'));
            this.stash = Buffer.from(b.subarray(off));
            return;
          }
          const line = b.toString('latin1', off, eol);
          off = eol + 2;
          if (this.state === CHUNK_END) {
            if (line !== '') return this.fail(ex, new TransportError('BAD_CHUNK', 'chunk data longer than its size'));
            this.state = CHUNK_SIZE;
          } else if (this.state === CHUNK_SIZE) {
            const size = /^([0-9a-fA-F]{1,12})[ \t]*(;.*)?$/.exec(line);
            if (!size) return this.fail(ex, new TransportError('BAD_CHUNK', `bad chunk size line ${JSON.stringify(line.slice(0, 40))}`));
            this.left = parseInt(size[1], 16);
            this.state = this.left === 0 ? TRAILERS : CHUNK_DATA;
          } else if (line === '') return this.finish(ex, b.length - off);
          break;
        }
      }
    }
  }

  /**
   * One header block read (b[from, to), without its final CRLF CRLF): an interim (1xx) answer is
   * skipped; else the framing of the body is set. Read byte by byte: no string is made per answer
   * unless the exchange keeps the answer, or a framing header is unusual.
   */
  private head(ex: Exchange, b: Buffer, from: number, to: number): boolean {
    // "HTTP/1.x NNN[ reason]"
    const minor = b[from + 7] - 48;
    const status = (b[from + 9] - 48) * 100 + (b[from + 10] - 48) * 10 + (b[from + 11] - 48);
    let eol = b.indexOf(CRLF, from);
    if (eol < 0 || eol > to) eol = to;
    if (eol - from < 12 || !spells(b, from, HTTP1) || (minor !== 0 && minor !== 1) || b[from + 8] !== 32 || !digits(b, from + 9, from + 12) || (eol > from + 12 && b[from + 12] !== 32)) {
      this.fail(ex, new TransportError('BAD_STATUS_LINE', `not an HTTP/1.x answer: ${JSON.stringify(b.toString('latin1', from, Math.min(eol, from + 40)))}`));
      return false;
    }
    if (status < 200 && status !== 101) return true;
    if (status === 101) {
      this.fail(ex, new TransportError('UPGRADE', 'the target switched protocols'));
      return false;
    }
    const lines = Math.min(eol + 2, to);
    let length = -1;
    let chunked = false;
    this.close = minor === 0;
    for (let at = lines; at < to; ) {
      let end = at;
      let colon = -1;
      for (; end < to && b[end] !== 13; end++) if (colon < 0 && b[end] === 58) colon = end;
      const n = colon - at;
      // Only three names decide the framing; the others are read by name when a body is kept.
      if (n === 14 && named(b, at, CONTENT_LENGTH)) {
        const v = trimmed(b, colon + 1, end);
        let x = 0;
        for (let i = v[0]; i < v[1]; i++) x = b[i] >= 48 && b[i] <= 57 ? x * 10 + b[i] - 48 : NaN;
        if (!(v[1] > v[0] && v[1] - v[0] <= 15 && x >= 0) || (length >= 0 && length !== x)) {
          this.fail(ex, new TransportError('BAD_CONTENT_LENGTH', `bad Content-Length ${JSON.stringify(b.toString('latin1', v[0], v[1]))}`));
          return false;
        }
        length = x;
      } else if (n === 17 && named(b, at, TRANSFER_ENCODING)) chunked = /(?:^|,)\s*chunked\s*$/i.test(b.toString('latin1', colon + 1, end));
      else if (n === 10 && named(b, at, CONNECTION)) {
        const v = trimmed(b, colon + 1, end);
        if (v[1] - v[0] !== 10 || !named(b, v[0], KEEP_ALIVE)) {
          const value = b.toString('latin1', v[0], v[1]).toLowerCase();
          if (value.includes('close')) this.close = true;
          else if (value.includes('keep-alive')) this.close = false;
        } else this.close = false;
      }
      at = end + 2;
    }
    this.want = ex.onHeaders(status, b, lines, to);
    if (this.ex !== ex) return false;
    if (this.method === 'HEAD' || status === 204 || status === 304 || (!chunked && length === 0)) this.state = DONE;
    else if (chunked) this.state = CHUNK_SIZE;
    else if (length > 0) {
      this.left = this.length = length;
      this.state = LENGTH;
    } else {
      this.state = UNTIL_CLOSE;
      this.close = true;
    }
    return this.ex === ex;
  }

  /** The answer ended; `extra` bytes after it on a one-request connection: it is dropped after this answer. */
  private finish(ex: Exchange, extra: number): void {
    this.state = HEAD;
    if (extra > 0) this.close = true;
    this.done(ex);
  }

  destroy(err: Error): void {
    const ex = this.ex;
    this.ex = undefined;
    this.drop();
    ex?.onError(err);
  }
}

/** Up to `connections` keep-alive connections to one origin; requests beyond wait in order for a free one. */
export class Connections implements Link {
  readonly host: string;
  readonly port: number;
  private readonly encoder: RequestBytes;
  private readonly idle: Connection[] = [];
  private readonly all: Connection[] = [];
  private readonly waiting: { req: WireRequest; ex: Exchange }[] = [];
  private closed = false;
  /** Where plain TCP connections read (see Connection.open). */
  readonly readBuffer = Buffer.allocUnsafe(64 * 1024);

  constructor(
    origin: string,
    private readonly connections: number,
    readonly secureContext?: SecureContext,
  ) {
    const u = new URL(origin);
    this.host = u.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    this.encoder = new RequestBytes(`host: ${u.host}\r\n`);
  }

  dispatch(req: WireRequest, ex: Exchange): void {
    if (this.closed) return later(ex, new TransportError('CLOSED', 'the load run has ended'));
    let c = this.idle.pop();
    if (!c && this.all.length < this.connections) this.all.push((c = new Connection(this)));
    if (c) return c.send(req, ex);
    this.waiting.push({ req, ex });
    ex.onConnect(this);
  }

  /** A queued request aborted: it leaves the queue. */
  abort(ex: Exchange, err?: Error): void {
    const i = this.waiting.findIndex((w) => w.ex === ex);
    if (i < 0) return;
    this.waiting.splice(i, 1);
    ex.onError(err ?? new TransportError('ABORTED', 'request aborted'));
  }

  /** A connection has no request: the next waiting one gets it. */
  free(c: Connection): void {
    if (this.closed) return;
    const w = this.waiting.shift();
    if (w) c.send(w.req, w.ex);
    else this.idle.push(c);
  }

  /** The request's bytes (wire.ts RequestBytes). */
  bytes(req: WireRequest): Buffer {
    return this.encoder.bytes(req);
  }

  async destroy(): Promise<void> {
    this.closed = true;
    const err = new TransportError('CLOSED', 'the load run has ended');
    for (const w of this.waiting.splice(0)) w.ex.onError(err);
    for (const c of this.all) c.destroy(err);
  }
}

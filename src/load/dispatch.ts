// One exchange handler per request (driven by transport.ts), and the in-flight record the engine's
// timeout sweep works on. An answer's headers are read only when its body is kept.

import type { Exchange, Link } from './transport.ts';

export interface InFlight {
  op: string;
  /** The request sent (the judge and the consistency scenario read its body). */
  req?: { op: string; method: string; path: string; body?: string };
  start: number;
  done: boolean;
  abort?(err?: Error): void;
}

export class TimeoutAbort extends Error {}

export interface Hooks {
  /** Flags (non-zero: keep the body) for an answer's status and operation; passed back to complete. */
  bodyFor: ((status: number, op: string) => number) | undefined;
  complete(h: Handler, status: number): void;
  error(h: Handler, err: Error & { code?: string }): void;
}

/** A request in flight and its transport.ts Exchange, in one object per request (methods on the prototype). */
export class Handler implements InFlight, Exchange {
  readonly op: string;
  done = false;
  status = 0;
  /** The answer's header block (latin1 lines after the status line), kept with the body only. */
  head = '';
  flags = 0;
  // The kept body: most answers come in one chunk, so an array is made only for a second one.
  private first: Buffer | undefined = undefined;
  private rest: Buffer[] | undefined = undefined;
  private body: string | undefined = undefined;
  private link: Link | undefined = undefined;
  constructor(
    readonly req: { op: string; method: string; path: string; body?: string },
    readonly start: number,
    private readonly hooks: Hooks,
  ) {
    this.op = req.op;
  }
  onConnect(link: Link) {
    this.link = link;
    if (this.done) link.abort(this, new TimeoutAbort('timeout'));
  }
  abort(err?: Error) {
    this.link?.abort(this, err);
  }
  onHeaders(code: number, b: Buffer, from: number, to: number): boolean {
    this.status = code;
    if (this.hooks.bodyFor && (this.flags = this.hooks.bodyFor(code, this.op))) {
      this.head = b.toString('latin1', from, to);
      return true;
    }
    return false;
  }
  onData(b: Buffer, from: number, to: number, whole: boolean) {
    // A body in one piece is decoded where it was read; pieces are copied (the transport reuses its buffer).
    if (whole) this.body = b.toString('utf8', from, to);
    else if (this.first === undefined) this.first = Buffer.from(b.subarray(from, to));
    else (this.rest ??= [this.first]).push(Buffer.from(b.subarray(from, to)));
  }
  onComplete() {
    this.hooks.complete(this, this.status);
  }
  onError(err: Error & { code?: string }) {
    this.hooks.error(this, err);
  }
  /** The kept body as text (flags non-zero only). */
  text(): string {
    if (this.body !== undefined) return this.body;
    if (this.rest) return Buffer.concat(this.rest).toString('utf8');
    return this.first === undefined ? '' : this.first.toString('utf8');
  }
}

/**
 * One header of an answer's header block (name given in lower case; the last one wins), read without
 * building a map: the judge wants only Content-Type, the 429 contract only Retry-After.
 */
export function headerIn(head: string, name: string): string | undefined {
  let out: string | undefined;
  const n = name.length;
  for (let at = 0; at < head.length; ) {
    let eol = head.indexOf('\r\n', at);
    if (eol < 0) eol = head.length;
    if (head.charCodeAt(at + n) === 58 /* : */ && eol > at + n) {
      let j = 0;
      for (; j < n; j++) {
        const c = head.charCodeAt(at + j);
        if ((c >= 65 && c <= 90 ? c | 0x20 : c) !== name.charCodeAt(j)) break;
      }
      if (j === n) out = head.slice(at + n + 1, eol).trim();
    }
    at = eol + 2;
  }
  return out;
}

// One undici dispatch handler per request (the legacy callbacks, so no header parsing unless a body
// is wanted), and the in-flight record the engine's timeout sweep works on.

export interface InFlight {
  op: string;
  /** The request sent (the judge and the consistency scenario read its body). */
  req?: { op: string; method: string; path: string; body?: string };
  start: number;
  done: boolean;
  abort?: (err?: Error) => void;
}

export class TimeoutAbort extends Error {}

export interface Hooks {
  /** Flags (non-zero: keep the body) for an answer's status and operation; passed back to complete. */
  bodyFor: ((status: number, op: string) => number) | undefined;
  complete(h: Handler, status: number): void;
  error(h: Handler, err: Error & { code?: string }): void;
}

/** undici dispatch handler (the legacy callbacks: no header parsing unless a body is wanted). One per request, methods on the prototype. */
export class Handler {
  status = 0;
  rawHeaders: Buffer[] = NO_HEADERS;
  flags = 0;
  // The kept body: most answers come in one chunk, so an array is made only for a second one.
  private first: Buffer | undefined = undefined;
  private rest: Buffer[] | undefined = undefined;
  constructor(
    readonly r: InFlight,
    private readonly hooks: Hooks,
  ) {}
  onConnect(abort: (err?: Error) => void) {
    this.r.abort = abort;
    if (this.r.done) abort(new TimeoutAbort('timeout'));
  }
  onHeaders(code: number, raw: Buffer[]) {
    this.status = code;
    if (this.hooks.bodyFor && (this.flags = this.hooks.bodyFor(code, this.r.op))) this.rawHeaders = raw;
    return true;
  }
  onData(chunk: Buffer) {
    if (this.flags === 0) return true;
    if (this.first === undefined) this.first = chunk;
    else (this.rest ??= [this.first]).push(chunk);
    return true;
  }
  onComplete() {
    this.hooks.complete(this, this.status);
  }
  onError(err: Error & { code?: string }) {
    this.hooks.error(this, err);
  }
  /** The kept body as text (flags non-zero only). */
  text(): string {
    if (this.rest) return Buffer.concat(this.rest).toString('utf8');
    return this.first === undefined ? '' : this.first.toString('utf8');
  }
}
const NO_HEADERS: Buffer[] = [];

export function headerMap(raw: Buffer[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) out[raw[i].toString('latin1').toLowerCase()] = raw[i + 1].toString('latin1');
  return out;
}

/**
 * One header of an answer's raw headers (name given in lower case; the last one wins, as in
 * headerMap), read without building the whole map: the judge wants only Content-Type, per answer.
 */
export function rawHeader(raw: Buffer[], name: string): string | undefined {
  let out: string | undefined;
  const n = name.length;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i];
    if (k.length !== n) continue;
    let j = 0;
    for (; j < n; j++) {
      const c = k[j];
      if ((c >= 65 && c <= 90 ? c | 0x20 : c) !== name.charCodeAt(j)) break;
    }
    if (j === n) out = raw[i + 1].toString('latin1');
  }
  return out;
}

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
  rawHeaders: Buffer[] = [];
  chunks: Buffer[] | undefined;
  flags = 0;
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
    if (this.hooks.bodyFor && (this.flags = this.hooks.bodyFor(code, this.r.op))) {
      this.chunks = [];
      this.rawHeaders = raw;
    }
    return true;
  }
  onData(chunk: Buffer) {
    this.chunks?.push(chunk);
    return true;
  }
  onComplete() {
    this.hooks.complete(this, this.status);
  }
  onError(err: Error & { code?: string }) {
    this.hooks.error(this, err);
  }
}

export function headerMap(raw: Buffer[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) out[raw[i].toString('latin1').toLowerCase()] = raw[i + 1].toString('latin1');
  return out;
}

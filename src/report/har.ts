// HAR 1.2 export (spec/schemas/har.schema.json): every exchange of the run, in the format the
// browser's network panel, Insomnia and Postman import. Exchanges arrive masked by the client
// (src/client/exchange-record.ts), so the file carries no more than results.json does. Each entry names its
// check, that check's rules and its verdict in custom fields (_check, _rules, _verdict): the format
// allows fields with a leading underscore and tools that do not know them ignore them.

import { STATUS_CODES } from 'node:http';
import type { CheckResult, Exchange, Reporter, RunEvent, Verdict } from '../events/index.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { publicUrl, type RunStarted } from './collect.ts';
import { writeReport } from './files.ts';

export const HAR_DEFAULTS = {
  /** Entries kept: a long run must not hold an unbounded list (bodies are already bounded per exchange). */
  maxEntries: 20_000,
} as const;

/** What the reporter keeps per exchange until the check's verdict is known. */
export interface Pending {
  exchange: Exchange;
  startedDateTime: string;
}

type NameValue = { name: string; value: string };

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: NameValue[];
    headers: NameValue[];
    queryString: NameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: NameValue[];
    headers: NameValue[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
    comment?: string;
  };
  cache: Record<string, never>;
  timings: { blocked: -1; dns: -1; connect: -1; ssl: -1; send: number; wait: number; receive: number };
  _check: string;
  _rules: string[];
  /**
   * The check's verdict; `unfinished` when the run ended (cancelled) before the check did. In an
   * audit's HAR (src/audit/har.ts): the worst outcome of the client rules judged on the exchange.
   */
  _verdict: Verdict | 'unfinished' | 'warn' | 'not-judged';
  _attempt: number;
  _error?: { code: string; message: string };
  /** W3C trace and span ids and X-Request-Id the request carried (also in its headers). */
  _traceId?: string;
  _spanId?: string;
  _requestId?: string;
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[]; comment?: string };
}

const pairs = (h: Record<string, string>): NameValue[] => Object.entries(h).map(([name, value]) => ({ name, value }));

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** One exchange as a HAR entry. A transport failure has no response: status 0 and _error, as browsers write it. */
export function harEntry(p: Pending, result: { rules: string[]; verdict: HarEntry['_verdict'] } | undefined): HarEntry {
  const { exchange: x } = p;
  const req = x.request;
  const res = x.response;
  const body = res?.body ?? '';
  const entry: HarEntry = {
    startedDateTime: p.startedDateTime,
    time: x.durationMs,
    request: {
      method: req.method,
      url: req.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(req.headers),
      queryString: queryOf(req.url),
      headersSize: -1,
      bodySize: req.body === undefined ? 0 : Buffer.byteLength(req.body),
      ...(req.body !== undefined ? { postData: { mimeType: req.headers['content-type'] ?? 'application/octet-stream', text: req.body } } : {}),
    },
    response: {
      status: res?.status ?? 0,
      statusText: res ? (STATUS_CODES[res.status] ?? '') : '',
      httpVersion: res ? 'HTTP/1.1' : '',
      cookies: [],
      headers: res ? pairs(res.headers) : [],
      content: {
        size: Buffer.byteLength(body),
        mimeType: res?.headers['content-type'] ?? '',
        ...(res?.body !== undefined ? { text: body } : {}),
        ...(res?.truncated ? { comment: 'body truncated by baas-conform (bounded recording, as in results.json)' } : {}),
      },
      redirectURL: res?.headers.location ?? '',
      headersSize: -1,
      // The recorded body may be truncated; the declared length is the size the target sent.
      bodySize: res ? (Number.isInteger(Number(res.headers['content-length'])) ? Number(res.headers['content-length']) : Buffer.byteLength(body)) : -1,
      ...(x.error ? { comment: `no response: ${x.error.code}` } : {}),
    },
    cache: {},
    // The client measures one span from sending to the whole body read: it is all waiting here.
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: x.durationMs, receive: 0 },
    _check: x.checkId,
    _rules: result?.rules ?? [],
    _verdict: result?.verdict ?? 'unfinished',
    _attempt: x.attempt,
  };
  if (x.error) entry._error = x.error;
  if (x.traceId) Object.assign(entry, { _traceId: x.traceId, _spanId: x.spanId, _requestId: x.requestId });
  return entry;
}

export function buildHar(started: RunStarted | undefined, pending: readonly Pending[], results: ReadonlyMap<string, CheckResult>, dropped = 0): Har {
  const notes = started ? [`run ${started.runId}, seed ${started.seed}, target ${publicUrl(started.target)}`] : [];
  if (dropped > 0) notes.push(`${dropped} later exchanges left out (limit ${HAR_DEFAULTS.maxEntries} entries)`);
  return {
    log: {
      version: '1.2',
      creator: { name: TOOL_NAME, version: started?.toolVersion ?? TOOL_VERSION },
      entries: pending.map((p) => harEntry(p, results.get(p.exchange.checkId))),
      ...(notes.length ? { comment: notes.join('; ') } : {}),
    },
  };
}

export class HarReporter implements Reporter {
  private started?: RunStarted;
  private readonly pending: Pending[] = [];
  private readonly results = new Map<string, CheckResult>();
  private dropped = 0;
  constructor(
    private readonly path: string,
    private readonly maxEntries: number = HAR_DEFAULTS.maxEntries,
  ) {}

  onEvent(e: RunEvent): void {
    if (e.type === 'run-started') this.started = e;
    else if (e.type === 'check-finished') this.results.set(e.result.checkId, e.result);
    else if (e.type === 'exchange') {
      if (this.pending.length >= this.maxEntries) {
        this.dropped++;
        return;
      }
      // The client emits the exchange as soon as the answer is read: now minus its duration is when it was sent.
      this.pending.push({ exchange: e.exchange, startedDateTime: new Date(Date.now() - e.exchange.durationMs).toISOString() });
    }
  }

  async close(): Promise<void> {
    await writeReport(this.path, `${JSON.stringify(buildHar(this.started, this.pending, this.results, this.dropped), null, 2)}\n`);
  }
}

// Reading an acknowledged write back, honestly. Only an answer the target gave whole can say a write is
// absent: a "not found" status for it (400, the section 7 ErrorNotFound row; 404; 410), or a whole
// list without it. Anything else says nothing about what the target holds and is "could not read",
// never "lost": a transport failure, still rate limited after bounded retries, a server error, a
// refusal of the reader (401, 403), a body over the read-back bound (an unread list is not an empty
// one), or a 2xx that is not JSON.

import { TransportError } from '../errors/index.ts';
import { exchange, type JsonFields, type SetupHttp } from './setup.ts';

export type ReadBack =
  | { kind: 'read'; status: number; json: JsonFields }
  | { kind: 'absent'; status: number; reason?: string }
  | { kind: 'unreadable'; why: string };

/** Statuses that say the resource is not there. */
const ABSENT = new Set([400, 404, 410]);
/** 429s waited out per read by the client (Retry-After, else backoff), so a rate-limited target is read, not judged. */
export const READ_RETRIES = 3;
/** Sleep one read may spend on 429s: a few waits, not the check client's minute (a gate stops a streak of them). */
const READ_WAIT_MS = 15_000;

export async function readBack(s: SetupHttp, method: string, path: string, headers: Record<string, string>): Promise<ReadBack> {
  let r;
  try {
    r = await exchange(s, { method, path, headers }, { retry: { maxRetries: READ_RETRIES, maxWaitMs: READ_WAIT_MS } });
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    if (e.code === 'BODY_TOO_LARGE') return { kind: 'unreadable', why: `a body over the ${s.session.maxBodyBytes}-byte read-back bound, not read whole` };
    if (e.code === 'RATE_LIMITED') return { kind: 'unreadable', why: `HTTP 429 after ${READ_RETRIES} retries` };
    return { kind: 'unreadable', why: `no answer (${e.message})` };
  }
  if (r.status >= 200 && r.status < 300) {
    if (r.json === undefined || r.json === null || typeof r.json !== 'object') return { kind: 'unreadable', why: `HTTP ${r.status} with a body that is not a JSON object` };
    return { kind: 'read', status: r.status, json: r.json };
  }
  if (ABSENT.has(r.status)) {
    const reason = r.json?.error_reason;
    // A 400 says "not found" only as the section 7 row does (its reason read from the model); another
    // 400 (a field the reader sent refused) says nothing about the write.
    const notFound = s.model.errorRule('ERR-S2S-USER-NOT-FOUND').reason;
    if (r.status === 400 && reason !== notFound) return { kind: 'unreadable', why: `HTTP 400 ${typeof reason === 'string' ? reason : 'without error_reason'}, not the ${notFound} row` };
    return { kind: 'absent', status: r.status, ...(typeof reason === 'string' ? { reason } : {}) };
  }
  return { kind: 'unreadable', why: `HTTP ${r.status}` };
}

/** Read-backs in a row that could not be read before the rest are not tried (a hanging or rate-limiting target). */
export const UNREADABLE_STREAK = 50;

/**
 * Reads through one gate per verification: after UNREADABLE_STREAK read-backs in a row could not be read,
 * the rest are not sent and count as could-not-read, so a target that hangs (30 s each) or keeps
 * answering 429 bounds the read-back phase instead of stretching it over every recorded write.
 */
export class ReadBackGate {
  private streak = 0;
  private closed: string | undefined;

  async read(s: SetupHttp, method: string, path: string, headers: Record<string, string>): Promise<ReadBack> {
    if (this.closed) return { kind: 'unreadable', why: `not tried: ${this.closed}` };
    const r = await readBack(s, method, path, headers);
    if (r.kind !== 'unreadable') this.streak = 0;
    else if (++this.streak >= UNREADABLE_STREAK) this.closed ??= `${UNREADABLE_STREAK} read-backs in a row could not be read (the last: ${r.why})`;
    return r;
  }
}

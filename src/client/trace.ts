// W3C Trace Context (https://www.w3.org/TR/trace-context/, version 00) and X-Request-Id on every
// request a check sends: one trace per check, one span per attempt (a 429 retry is a request of its
// own on the server), so an implementer can find the server side of a failing exchange in their own
// tracing backend or logs. The ids are random, never derived from the run seed: two runs with the
// same seed are still two traces.

import { randomFillSync, randomUUID } from 'node:crypto';

/** The ids one attempt carried, recorded on its exchange. */
export interface TraceIds {
  traceId: string;
  spanId: string;
  requestId: string;
}

/** version 00, trace-id (32 hex), parent-id (16 hex), flags 01 (sampled). */
export const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/**
 * Random bytes drawn from one refilled buffer: an id per attempt, thousands a run, and a randomBytes
 * call of its own for each was a measurable share of a request's CPU. Still the CSPRNG's bytes.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/**
 * Random lowercase hex of `bytes` bytes, never all zeros (the format forbids an all-zero id) and never
 * all decimal digits: a 16-digit span id passes the Luhn check one time in ten, and then reads as a card
 * number to every scanner of a report or a certification package (about one run in seven had one).
 */
function hexId(bytes: number): string {
  for (;;) {
    if (poolAt + bytes > pool.length) {
      randomFillSync(pool);
      poolAt = 0;
    }
    const id = pool.toString('hex', poolAt, poolAt + bytes);
    poolAt += bytes;
    if (!/^0+$/.test(id) && /[a-f]/.test(id)) return id;
  }
}

export const newTraceId = (): string => hexId(16);
export const newSpanId = (): string => hexId(8);

export function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}

/**
 * The headers of one attempt: `base` plus a fresh span of `traceId` and a fresh X-Request-Id. A check
 * that sets either header itself (to test how a target handles it) keeps its own value, and the
 * exchange then records no ids of ours.
 */
export function withTrace(base: Record<string, string>, traceId: string): { headers: Record<string, string>; ids?: TraceIds } {
  if ('traceparent' in base || 'x-request-id' in base) return { headers: base };
  const ids: TraceIds = { traceId, spanId: newSpanId(), requestId: randomUUID() };
  return { headers: { ...base, traceparent: traceparent(ids.traceId, ids.spanId), 'x-request-id': ids.requestId }, ids };
}

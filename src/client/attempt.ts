// One request on the wire, never retried: a hard time budget (headers and body alike) and a bounded
// body, so a stalled or hostile target can neither hang the run nor exhaust memory. Failures come
// back as TransportError with the cause named (timeout, abort, too large, connection).

import type { Dispatcher } from 'undici';
import type { HttpResponse } from './types.ts';
import { decodeBody, parseJsonBounded, tooLarge } from './decode.ts';
import { toTransportError } from './errors.ts';
import type { RequestTarget } from './request-target.ts';
import { STALL_CAP, stallTolerantTimer } from './stall.ts';

export interface AttemptLimits {
  /**
   * Whole-request budget in ms (connect, headers and body), of time this thread could run: a stall of
   * its own event loop meanwhile is added, up to STALL_CAP x the budget (stall.ts).
   */
  budgetMs: number;
  maxBodyBytes: number;
  signal?: AbortSignal;
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * Sends one request and reads its body within the limits. Throws TransportError. `pool` is called
 * inside the guarded send, so a pool that cannot be made for the origin is a transport error too.
 */
export async function sendAttempt(
  pool: () => Dispatcher,
  target: RequestTarget,
  headers: Record<string, string>,
  body: string | undefined,
  limits: AttemptLimits,
): Promise<HttpResponse> {
  // One controller per attempt, aborted by the budget or by the check's signal (whichever comes first
  // gives the reason): AbortSignal.any made a combined signal, with weak references to both, per request.
  const controller = new AbortController();
  let timedOut = false;
  const timer = stallTolerantTimer(limits.budgetMs, () => {
    timedOut = true;
    controller.abort(new DOMException(`no answer within ${limits.budgetMs} ms`, 'TimeoutError'));
  });
  const unfollow = limits.signal ? follow(limits.signal, controller) : undefined;
  try {
    return await send(pool, target, headers, body, limits, controller.signal, () => timedOut);
  } finally {
    timer.clear();
    unfollow?.();
  }
}

/** The attempts in flight under each outer signal (a check's): one listener per signal, however many attempts it runs at once. */
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

/** Aborts `c` with `outer`'s reason when `outer` aborts (at once if it has); the result stops following. */
function follow(outer: AbortSignal, c: AbortController): () => void {
  if (outer.aborted) {
    c.abort(outer.reason);
    return () => undefined;
  }
  let set = followers.get(outer);
  if (!set) {
    const attempts = (set = new Set());
    followers.set(outer, attempts);
    outer.addEventListener('abort', () => {
      for (const a of attempts) a.abort(outer.reason);
      attempts.clear();
    }, { once: true });
  }
  set.add(c);
  const attempts = set;
  return () => attempts.delete(c);
}

async function send(
  pool: () => Dispatcher,
  target: RequestTarget,
  headers: Record<string, string>,
  body: string | undefined,
  limits: AttemptLimits,
  combined: AbortSignal,
  timedOut: () => boolean,
): Promise<HttpResponse> {
  const started = performance.now();
  const { budgetMs: budget, maxBodyBytes: max, signal } = limits;
  // undici's own timers are a backstop at the cap: the stall-tolerant signal decides.
  const backstop = budget * STALL_CAP;
  const href = target.url.href;
  const state = () => ({ timedOut: timedOut(), aborted: !!signal?.aborted, budgetMs: budget });
  let res;
  try {
    res = await pool().request({
      method: target.method as Dispatcher.HttpMethod,
      path: target.url.pathname + target.url.search,
      headers,
      body,
      signal: combined,
      headersTimeout: backstop,
      bodyTimeout: backstop,
    });
  } catch (err) {
    throw toTransportError(err, href, state());
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      throw tooLarge(`${href}: Content-Length ${declared} exceeds the ${max}-byte limit (refused before reading)`, href, 0);
    }
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      // Stop reading as soon as the limit is passed: memory stays bounded whatever the server sends.
      if (size > max) throw tooLarge(`${href}: response body exceeds the ${max}-byte limit (refused after reading ${size} bytes)`, href, size);
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    // undici's body errors with RequestAbortedError when destroyed before its end; nothing listens
    // once the loop above has left, and an unheard stream error would end the process.
    res.body.on('error', () => undefined);
    res.body.destroy();
    throw toTransportError(err, href, state());
  }
  const raw = Buffer.concat(chunks);
  const headersOut = flattenHeaders(res.headers);
  const text = decodeBody(raw, headersOut['content-encoding'], max, href).toString('utf8');
  const { json, jsonError } = parseJsonBounded(text, href);
  const out: HttpResponse = { status: res.statusCode, headers: headersOut, text, json, durationMs: performance.now() - started };
  if (jsonError !== undefined) out.jsonError = jsonError;
  return out;
}

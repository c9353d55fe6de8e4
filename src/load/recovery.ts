// Token-burst recovery: after the burst, a well-behaved client backing off must get through.

import { RETRY_DEFAULTS, backoffDelay } from '../client/retry.ts';
import { sendOp, tokenBody, type SetupHttp } from './setup.ts';
import type { RecoveryResult } from './types.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A well-behaved client after the burst: exponential backoff with full jitter (src/client/retry.ts),
 * honouring Retry-After (capped), bounded in attempts and total time. Recovery time runs from the
 * first probe to the first 200.
 */
export async function recoveryProbe(s: SetupHttp, bounds: { maxAttempts?: number; maxMs?: number } = {}): Promise<RecoveryResult> {
  const maxAttempts = bounds.maxAttempts ?? 20;
  const maxMs = bounds.maxMs ?? 60_000;
  const opts = { ...RETRY_DEFAULTS, maxRetries: maxAttempts };
  const body = tokenBody(s.profile.clients[0], s.model);
  const start = Date.now();
  const attempts: RecoveryResult['attempts'] = [];
  for (let i = 1; i <= maxAttempts; i++) {
    const at_ms = Date.now() - start;
    let status: number | 'error';
    let retryAfter: string | undefined;
    try {
      const r = await sendOp(s, 'createToken', {}, body, { noRetry: true });
      status = r.status;
      const ra = r.headers['retry-after'];
      retryAfter = Array.isArray(ra) ? ra[0] : ra;
    } catch {
      status = 'error';
    }
    const attempt: RecoveryResult['attempts'][number] = { at_ms, status, ...(retryAfter !== undefined ? { retry_after: retryAfter } : {}) };
    attempts.push(attempt);
    if (status === 200) {
      return { recovered: true, recovery_ms: at_ms, attempts, limited_at_start: attempts[0].status === 429, detail: `got a token after ${at_ms} ms and ${i} attempt(s)` };
    }
    if (status !== 429 && status !== 'error') {
      return { recovered: false, recovery_ms: null, attempts, limited_at_start: attempts[0].status === 429, detail: `probe got HTTP ${status} (neither 200 nor 429)` };
    }
    const wait = backoffDelay(i, retryAfter, opts);
    if (Date.now() - start + wait > maxMs) break;
    attempt.waited_ms = wait;
    await sleep(wait);
  }
  return {
    recovered: false,
    recovery_ms: null,
    attempts,
    limited_at_start: attempts[0]?.status === 429,
    detail: `still limited after ${attempts.length} attempt(s) over ${Date.now() - start} ms (bounds: ${maxAttempts} attempts, ${maxMs} ms)`,
  };
}

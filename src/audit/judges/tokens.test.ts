// The refresh-buffer judge on hand-made traffic: judged only once the client called into the last half
// of a token's buffer (where a token not renewed shows), and a retry that re-sends its first attempt's
// token is judged when that attempt was sent.

import { describe, expect, it } from 'vitest';
import { loadModel } from '../../model/index.ts';
import { DEFAULT_PLAN } from '../plan.ts';
import type { Exchange } from '../types.ts';
import { JUDGES } from './index.ts';

const model = await loadModel();
const judge = (exchanges: Exchange[]) => JUDGES['CLIENT-TOKEN-REFRESH-BUFFER']!({ model, plan: DEFAULT_PLAN, rule: model.clientRule('CLIENT-TOKEN-REFRESH-BUFFER'), exchanges, deliveries: [], webhooks: false, stalls: [] });

const expSec = 3_000_000;
const exp = expSec * 1000;
const buffer = DEFAULT_PLAN.scale.refresh_buffer_seconds * 1000;
const token: Exchange = { seq: 1, server: 'api', method: 'POST', path: '/api/v1/token', query: '', operationId: 'createToken', headers: {}, bodyText: '', startMs: exp - 9000, endMs: exp - 8990, status: 200, responseBody: { access_token: '<s2s token #1>', expires_at: expSec } };
const use = (seq: number, at: number, extra: Partial<Exchange> = {}): Exchange => ({ seq, server: 'api', method: 'POST', path: '/api/v1/users/authorize', query: '', operationId: 'authorizeUser', headers: {}, bodyText: '', startMs: at, endMs: at + 5, status: 200, token: { kind: 's2s', n: 1, expiresAtSec: expSec }, ...extra });

describe('CLIENT-TOKEN-REFRESH-BUFFER judge', () => {
  it('is not exercised by a client that stopped calling in the first half of the buffer, where a token never renewed looks like one renewed', () => {
    const j = judge([token, use(2, exp - buffer + 100)]);
    expect(j.status, j.message).toBe('not-exercised');
    expect(j.message).toMatch(/last half of its 4 s refresh window/);
    // Calling on into the last half with the same token: the late use shows, and fails.
    expect(judge([token, use(2, exp - buffer + 100), use(3, exp - buffer / 2 + 100)]).status).toBe('fail');
  });

  it('judges a retry that re-sends its first attempt\'s token when that attempt was sent', () => {
    // Sent in time, met by a 429 with Retry-After, retried with the same headers (undici's RetryAgent) in the last half.
    const first = use(2, exp - buffer + 100, { status: 429, injected: { kind: 'rate-limit', retryAfter: 2 } });
    const retry = use(3, exp - buffer / 2 + 300);
    const renewed = { ...token, seq: 4, startMs: exp - buffer / 2 + 400, endMs: exp - buffer / 2 + 410, responseBody: { access_token: '<s2s token #2>', expires_at: expSec + 9 } };
    const j = judge([token, first, retry, renewed, use(5, exp, { token: { kind: 's2s', n: 2, expiresAtSec: expSec + 9 } })]);
    expect(j.status, j.message).toBe('pass');
    // The same call sent fresh in the last half (no attempt before it) is a late use.
    expect(judge([token, use(2, exp - buffer + 100), retry, renewed]).status).toBe('fail');
  });
});

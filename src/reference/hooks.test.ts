// The mutant-bank hooks the reference offers besides fault points: the rule id of an error reaching
// the response transform (so a mutant selects an error by rule, not by text), and a short rate-limit
// window option.

import { describe, expect, it } from 'vitest';
import type { OutgoingResponse, TransformRequest } from './index.ts';
import { startKit } from './testkit.ts';

describe('reference hooks', () => {
  it('an error response carries the rule it renders to the transform; a success carries none', async () => {
    const seen: { op?: string; status: number; ruleId?: string }[] = [];
    const k = await startKit({
      transform: (req: TransformRequest, res: OutgoingResponse) => {
        seen.push({ op: req.operationId, status: res.status, ruleId: res.ruleId });
        // onRule-style rewrite: select by rule id, change the message.
        if (res.ruleId === 'ERR-TOKEN-CLIENT-SECRET-MISSING') res.body = res.body.replace('client secret is required', 'mutated');
      },
    });
    try {
      const missingId = await k.call('POST', '/api/v1/token', { body: { client_secret: 'x', grant_type: 'client_credentials' } });
      const missingSecret = await k.call('POST', '/api/v1/token', { body: { client_id: 'x', grant_type: 'client_credentials' } });
      await k.token();
      const noAuth = await k.call('GET', '/api/v1/config');
      expect(missingId.obj.error_description).toBe('client id is required');
      expect(missingSecret.obj.error_description).toBe('mutated');
      expect(seen.map((s) => s.ruleId)).toEqual(['ERR-TOKEN-CLIENT-ID-MISSING', 'ERR-TOKEN-CLIENT-SECRET-MISSING', undefined, 'ERR-S2S-AUTH-HEADER-MISSING']);
      expect(noAuth.status).toBe(400);
      // Not on the wire.
      expect(JSON.stringify(noAuth.headers)).not.toContain('ERR-');
      // A validation failure no section 7 row covers has no rule.
      const wrongType = await k.call('POST', '/api/v1/token', { body: { client_id: 5, client_secret: 'x', grant_type: 'client_credentials' } });
      expect(wrongType.status).toBe(400);
      expect(seen.at(-1)).toMatchObject({ op: 'createToken', status: 400, ruleId: undefined });
    } finally {
      await k.close();
    }
  });

  it('rateLimitWindowMs shortens only the window: over the limit is 429, and a new window (on the server clock) admits again', async () => {
    const limits = { perIp: 2, perClient: 100, windowMs: 60_000 };
    const short = await startKit({ rateLimit: limits, rateLimitWindowMs: 300 });
    const long = await startKit({ rateLimit: limits });
    try {
      for (const k of [short, long]) {
        const post = () => k.call('POST', '/api/v1/token', { body: {} });
        expect((await post()).status).toBe(400);
        expect((await post()).status).toBe(400);
        expect((await post()).status).toBe(429);
      }
      // The limiter reads the server clock: one second on it ends the 300 ms window, not the 60 s one.
      for (const k of [short, long]) expect((await k.call('POST', '/clock/advance', { server: 'control', body: { seconds: 1 } })).status).toBe(200);
      expect((await short.call('POST', '/api/v1/token', { body: {} })).status).toBe(400);
      expect((await long.call('POST', '/api/v1/token', { body: {} })).status).toBe(429);
    } finally {
      await Promise.all([short.close(), long.close()]);
    }
  });
});

// Section 8 limits: S2S token validity, the token endpoint rate limit (429 + backoff), the request
// timeout budget, and TLS 1.2+ on HTTPS targets.

import tls from 'node:tls';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import { check, chainHeader, clockSkewAllowance, expect2xx, expectError, headers, bearer, is2xx, jwtClaims, requestToken, s2sToken, tokenBody } from './fixtures.ts';

const PROBE_DEFAULT = 400;
const PROBE_WINDOW_MS = 20_000;
const PROBE_CONCURRENCY = 20;
const RECOVERY_MS = 60_000;

function tlsProtocol(host: string, port: number, opts: tls.ConnectionOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host, port, servername: /^[\d.:]+$/.test(host) ? undefined : host, rejectUnauthorized: false, ...opts }, () => {
      const p = socket.getProtocol() ?? 'unknown';
      socket.end();
      resolve(p);
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('TLS handshake timed out')));
    socket.on('error', reject);
  });
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)$/i;

export const drivers: Drivers = {
  'LIMIT-S2S-TOKEN-VALIDITY': {
    title: 'S2S token validity: exp - iat equals the model value (172800 s) and expires_at is exp, about now + 172800',
    safe: true,
    async run(ctx) {
      const validity = ctx.model.limits.s2s_token_validity?.value;
      if (!validity) throw new Error('the model has no s2s_token_validity limit');
      const before = Math.floor(Date.now() / 1000);
      const res = await requestToken(ctx, tokenBody(ctx));
      expect2xx(res, 'POST /api/v1/token');
      const after = Math.ceil(Date.now() / 1000);
      const claims = jwtClaims(res.json.access_token) as { iat?: number; exp?: number };
      check(typeof claims.iat === 'number' && typeof claims.exp === 'number', 'the S2S token has no numeric iat/exp', { response: res });
      check(claims.exp! - claims.iat! === validity, `exp - iat = ${claims.exp! - claims.iat!} s, expected ${validity} s`, { response: res });
      const at = res.json.expires_at;
      check(Number.isInteger(at), `expires_at ${JSON.stringify(at)} is not an integer`, { response: res });
      check(Math.abs(at - claims.exp!) <= 2, `expires_at ${at} differs from the token's exp ${claims.exp}`, { response: res });
      const slack = 5 + clockSkewAllowance(ctx);
      check(at >= before + validity - slack && at <= after + validity + slack, `expires_at ${at} is not now + ${validity} s (expected ${before + validity}..${after + validity}, ±${slack} s)`, { response: res });
    },
  },

  'LIMIT-TOKEN-RATE-LIMIT': {
    title: 'The token endpoint is rate limited: a burst (bounded by profile.rate_limit.max_probe_requests, default 400, and 20 s) gets 429 CategoryTransientFailure; a caller using exponential backoff then succeeds',
    safe: true,
    exclusive: true,
    alsoCovers: ['ERR-RATE-LIMITED'],
    async run(ctx) {
      const max = ctx.profile.rate_limit?.max_probe_requests ?? PROBE_DEFAULT;
      const body = tokenBody(ctx);
      const end = Date.now() + PROBE_WINDOW_MS;
      let sent = 0;
      let limited: HttpResponse | undefined;
      while (!limited && sent < max && Date.now() < end) {
        const n = Math.min(PROBE_CONCURRENCY, max - sent);
        sent += n;
        const batch = await Promise.all(Array.from({ length: n }, () => requestToken(ctx, body, { noRetry: true })));
        limited = batch.find((r) => r.status === 429);
        const odd = batch.find((r) => r.status !== 429 && !is2xx(r));
        check(!odd, `a valid token request in the burst answered HTTP ${odd?.status} (only 2xx or 429 fit)`, { response: odd });
      }
      check(limited, `no 429 after ${sent} token requests in ${Math.round((PROBE_WINDOW_MS - Math.max(0, end - Date.now())) / 1000)} s: section 8 says the token endpoint is limited per IP and per client (raise profile.rate_limit.max_probe_requests if the limit is higher)`, { rules: ['LIMIT-TOKEN-RATE-LIMIT'] });
      expectError(ctx, limited, 'ERR-RATE-LIMITED', ['ERR-RATE-LIMITED', 'LIMIT-TOKEN-RATE-LIMIT']);
      // Exponential backoff (the engine's client retries 429 without noRetry) gets through again.
      const stop = Date.now() + RECOVERY_MS;
      let last: HttpResponse | undefined;
      while (Date.now() < stop) {
        last = await requestToken(ctx, body);
        if (is2xx(last)) return;
        check(last.status === 429, `while backing off, the token endpoint answered HTTP ${last.status}`, { response: last });
      }
      check(false, `the token endpoint still answered 429 after ${RECOVERY_MS / 1000} s of exponential backoff`, { response: last, rules: ['LIMIT-TOKEN-RATE-LIMIT'] });
    },
  },

  'LIMIT-REQUEST-TIMEOUT': {
    title: 'Documented calls answer within the recommended 30 s client timeout (a stall is a TIMEOUT failure)',
    safe: true,
    async run(ctx: CheckContext) {
      const limitS = ctx.model.limits.request_timeout?.value;
      if (!limitS) throw new Error('the model has no request_timeout limit');
      const token = await s2sToken(ctx);
      const calls: HttpResponse[] = [
        await requestToken(ctx, tokenBody(ctx)),
        await ctx.http.send({ op: 'getConfig', headers: headers(bearer(token), chainHeader(ctx)) }),
        await ctx.http.send({ op: 'getValidationRules', headers: headers(bearer(token), chainHeader(ctx)) }),
        await ctx.http.send({ op: 'getUserV1', headers: headers(bearer(token), chainHeader(ctx)) }),
      ];
      for (const res of calls) check(res.durationMs <= limitS * 1000, `a call took ${Math.round(res.durationMs)} ms, over the ${limitS} s recommended client timeout`, { response: res });
    },
  },

  'LIMIT-TRANSPORT-TLS': {
    title: 'Transport is HTTPS with TLS 1.2 or newer; TLS 1.1 and older are refused',
    safe: true,
    async run(ctx) {
      const url = new URL(ctx.profile.base_url);
      if (url.protocol === 'http:') {
        if (LOOPBACK.test(url.hostname)) ctx.skip('target is plain HTTP on loopback; TLS version can only be checked on https');
        check(false, `base_url ${url.origin} is plain HTTP; the service is used over HTTPS with TLS 1.2 or newer (section 8)`);
      }
      const port = Number(url.port || 443);
      const proto = await tlsProtocol(url.hostname, port, {});
      check(proto === 'TLSv1.2' || proto === 'TLSv1.3', `negotiated ${proto}; section 8 requires TLS 1.2 or newer`);
      let old: string | undefined;
      try {
        old = await tlsProtocol(url.hostname, port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1' });
      } catch {
        old = undefined; // refused (by the target or by the local TLS library): nothing older than 1.2 was negotiated
      }
      check(old === undefined, `the target negotiated ${old}; TLS older than 1.2 must be refused`);
    },
  },
};

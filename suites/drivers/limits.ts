// Section 8 limits (the clock-driven ones are in limits-clock.ts): S2S token validity, the token endpoint rate limit (429 + backoff), the request
// timeout budget, and TLS 1.2+ on HTTPS targets.

import tls from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, RETRY_DEFAULTS } from '../../src/client/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import { isPrerequisiteFailed } from '../../src/checks/prerequisite.ts';
import { clockDrivers } from './limits-clock.ts';
import { RATE_PROBE_DEFAULTS } from './limits-rate.ts';
import { advanceClock, check, clockSkewAllowance, hasControl, expect2xx, expectError, is2xx, jwtClaims, requestToken, s2sHeaders, sharedUser, tokenBody, userHeaders, warnReading, opLabel, field } from '../kit/index.ts';

export { RATE_PROBE_DEFAULTS };
const PROBE_CONCURRENCY = 20;
/** Recovery bound a declared window may raise the default to: under the default 120 s per-check limit. */
const MAX_WINDOW_RECOVERY_S = 100;

/**
 * Moves the target's clock past the limit's window when its control adapter can (advanceClock), so the
 * backoff below does not sleep through it in real time: by the 429's Retry-After, or the declared
 * window, in whole seconds. A target whose limiter does not follow that clock still answers 429, and
 * the backoff then waits as it would without control; a refused advance only leaves the wait to it.
 */
async function skipWindow(ctx: CheckContext, limited: HttpResponse, declaredWindowS: number | undefined): Promise<void> {
  if (!hasControl(ctx, 'advanceClock')) return;
  const retryAfter = Number(limited.headers['retry-after']);
  const seconds = Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : declaredWindowS !== undefined ? Math.ceil(declaredWindowS) : undefined;
  if (seconds === undefined || seconds > MAX_WINDOW_RECOVERY_S) return;
  await advanceClock(ctx, seconds).catch((err) => {
    if (!isPrerequisiteFailed(err)) throw err;
  });
}

/** Resolves with the negotiated protocol, or rejects with the TLS error; the socket is destroyed when the check's signal aborts. */
function tlsProtocol(host: string, port: number, opts: tls.ConnectionOptions, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const socket = tls.connect({ host, port, servername: /^[\d.:]+$/.test(host) ? undefined : host, rejectUnauthorized: false, ...opts }, () => {
      const p = socket.getProtocol() ?? 'unknown';
      socket.end();
      done();
      resolve(p);
    });
    const onAbort = () => {
      socket.destroy();
      reject(signal.reason);
    };
    const done = () => signal.removeEventListener('abort', onAbort);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.setTimeout(10_000, () => socket.destroy(Object.assign(new Error('TLS handshake timed out'), { code: 'ETIMEDOUT' })));
    socket.on('error', (err) => {
      done();
      reject(err);
    });
    socket.on('close', done);
  });
}

/** Errors raised by the local TLS library before the peer could answer (it cannot offer the version asked for). */
const LOCAL_TLS_ERRORS = /NO_PROTOCOLS_AVAILABLE|LEGACY_SIGALG|CA_MD_TOO_WEAK|EE_KEY_TOO_SMALL|DH_KEY_TOO_SMALL|NO_CIPHERS_AVAILABLE|NO_CIPHER_MATCH|UNSUPPORTED_PROTOCOL_VERSION|ERR_SSL_INTERNAL_ERROR|ERR_TLS_INVALID_PROTOCOL|ERR_INVALID_ARG/i;
/** The peer refused the handshake: a protocol-version or handshake-failure alert, or it answered a version we did not offer. */
const PEER_REFUSAL = /ALERT_PROTOCOL_VERSION|ALERT_HANDSHAKE_FAILURE|ALERT_INSUFFICIENT_SECURITY|WRONG_SSL_VERSION|ERR_SSL_UNSUPPORTED_PROTOCOL|UNSUPPORTED_PROTOCOL|VERSION_TOO_LOW|TLSV1_ALERT/i;

/** The peer ended the connection without a TLS alert: a refusal or a network failure, told apart by a handshake that succeeds after it. */
const CLOSED = /ECONNRESET|EPIPE|socket disconnected|socket hang up|ECONNABORTED/i;

function tlsErrorText(err: unknown): string {
  const e = err as { code?: string; message?: string } | null | undefined;
  return `${e?.code ?? ''} ${e?.message ?? String(err)}`.trim();
}


export const drivers: Drivers = {
  ...clockDrivers,

  'LIMIT-S2S-TOKEN-VALIDITY': {
    title: 'S2S token validity: exp - iat equals the model value (172800 s) and expires_at is exp, about now + 172800',
    safe: true,
    async run(ctx) {
      const validity = ctx.model.limits.s2s_token_validity?.value;
      if (!validity) throw new Error('the model has no s2s_token_validity limit');
      const before = Math.floor(Date.now() / 1000);
      const res = await requestToken(ctx, tokenBody(ctx));
      expect2xx(res, opLabel(ctx, 'createToken'));
      const after = Math.ceil(Date.now() / 1000);
      const token = field(res.json, 'access_token');
      check(typeof token === 'string', `${opLabel(ctx, 'createToken')} answered no access_token string: ${res.text.slice(0, 200)}`, { response: res });
      const claims = jwtClaims(token) as { iat?: number; exp?: number };
      check(typeof claims.iat === 'number' && typeof claims.exp === 'number', 'the S2S token has no numeric iat/exp', { response: res });
      check(claims.exp! - claims.iat! === validity, `exp - iat = ${claims.exp! - claims.iat!} s, expected ${validity} s`, { response: res });
      const at = field(res.json, 'expires_at');
      check(typeof at === 'number' && Number.isInteger(at), `expires_at ${JSON.stringify(at)} is not an integer`, { response: res });
      check(Math.abs(at - claims.exp!) <= 2, `expires_at ${at} differs from the token's exp ${claims.exp}`, { response: res });
      const slack = 5 + clockSkewAllowance(ctx);
      check(at >= before + validity - slack && at <= after + validity + slack, `expires_at ${at} is not now + ${validity} s (expected ${before + validity}..${after + validity}, ±${slack} s)`, { response: res });
    },
  },

  // Requests worth their cost (issue 32): about 120 requests for two rules, kept. The rule is the limit
  // itself, so the burst must reach it (the target's limit, unknown to the spec, sets the count; the
  // flood stops at the first 429) and the recovery must be observed; nothing cheaper shows either. The
  // pacer (src/client/pace.ts) leaves these noRetry requests alone for the same reason.
  'LIMIT-TOKEN-RATE-LIMIT': {
    title: 'The token endpoint is rate limited: a burst (bounded by profile.rate_limit: max_probe_requests 400, max_probe_seconds 20 by default) gets 429 CategoryTransientFailure; exponential backoff then succeeds (within recovery_seconds, 60 by default). Not run with --safe: flooding a shared sandbox\'s token endpoint can lock out the partner\'s real client',
    safe: false,
    exclusive: true,
    alsoCovers: ['ERR-RATE-LIMITED'],
    async run(ctx) {
      const rl = ctx.profile.rate_limit ?? {};
      const max = rl.max_probe_requests ?? RATE_PROBE_DEFAULTS.max_probe_requests;
      const windowS = rl.max_probe_seconds ?? RATE_PROBE_DEFAULTS.max_probe_seconds;
      // A documented window (profile.rate_limit.window_seconds, the target's choice: section 8 shows no
      // numbers) bounds how long the limit can hold: without a recovery bound of its own, the check
      // backs off at least one window (plus slack, within the default per-check limit) before it calls
      // recovery unobserved.
      const declaredWindowS = rl.window_seconds;
      const windowRecoveryS = declaredWindowS !== undefined ? Math.min(MAX_WINDOW_RECOVERY_S, Math.ceil(declaredWindowS) + 5) : 0;
      const recoveryS = rl.recovery_seconds ?? Math.max(RATE_PROBE_DEFAULTS.recovery_seconds, windowRecoveryS);
      const body = tokenBody(ctx);
      const start = Date.now();
      const end = start + windowS * 1000;
      let sent = 0;
      let limited: HttpResponse | undefined;
      while (!limited && sent < max && Date.now() < end) {
        ctx.signal.throwIfAborted();
        const n = Math.min(PROBE_CONCURRENCY, max - sent);
        sent += n;
        const batch = await Promise.all(Array.from({ length: n }, () => requestToken(ctx, body, { noRetry: true })));
        limited = batch.find((r) => r.status === 429);
        const odd = batch.find((r) => r.status !== 429 && !is2xx(r));
        check(!odd, `a valid token request in the burst answered HTTP ${odd?.status} (only 2xx or 429 fit)`, { rules: ['LIMIT-TOKEN-RATE-LIMIT'], response: odd });
        // Every 429, not just the first, carries the section 7 body with CategoryTransientFailure: that is
        // the error row's verdict; reaching the limit and recovering from it is the limit rule's.
        for (const r of batch) if (r.status === 429) expectError(ctx, r, 'ERR-RATE-LIMITED');
      }
      // Section 8 says the endpoint is limited but gives no numbers ("Numeric rate-limit values and other
      // quotas: not shown"): a limit above the probe's bounds is not reached, which is not a failure.
      // The rule's reading not-reached: a warning (--strict fails it), with the bound to raise.
      if (!limited) {
        warnReading(ctx, 'LIMIT-TOKEN-RATE-LIMIT', 'not-reached', `rate limit not reached: no 429 after ${sent} token requests in ${Math.round((Date.now() - start) / 1000)} s, the probe bound (profile.rate_limit.max_probe_requests = ${max}, max_probe_seconds = ${windowS}); raise those bounds in the profile if the target's limit is higher`);
        return;
      }
      // Not required (the spec does not show Retry-After; callers back off exponentially), but it tells them how long to wait.
      if (limited && !limited.headers['retry-after']) ctx.warn('the 429 from the token endpoint carries no Retry-After header: not required (section 8 has callers back off exponentially), but recommended so clients know how long to wait');
      // Exponential backoff gets through again. The check backs off itself (honouring Retry-After) up to
      // the profile's recovery bound: the 429s it waits through are what it judges, and the client's own
      // wait bound (a 429 is never the answer elsewhere) is not this check's bound.
      const stop = Date.now() + recoveryS * 1000;
      await skipWindow(ctx, limited, declaredWindowS);
      let last: HttpResponse | undefined;
      for (let retry = 1; Date.now() < stop; retry++) {
        ctx.signal.throwIfAborted();
        last = await requestToken(ctx, body, { noRetry: true });
        if (is2xx(last)) return;
        check(last.status === 429, `while backing off, the token endpoint answered HTTP ${last.status} (only 2xx or 429 fit)`, { rules: ['LIMIT-TOKEN-RATE-LIMIT'], response: last });
        expectError(ctx, last, 'ERR-RATE-LIMITED');
        // Retry-After is whole seconds; a target that documents a shorter window resets within it, so a
        // wait is never longer than that window (a 429 after it is judged like any other, and backed off).
        const backoff = backoffDelay(retry, last.headers['retry-after'], RETRY_DEFAULTS);
        const wait = Math.min(declaredWindowS !== undefined ? Math.min(backoff, declaredWindowS * 1000) : backoff, Math.max(0, stop - Date.now()));
        await sleep(wait, undefined, { signal: ctx.signal });
      }
      // The spec gives no window length either, so a limit still in force after the profile's recovery bound is not a verdict.
      ctx.skip(`rate limit reached, but recovery not observed: still 429 after ${recoveryS} s of exponential backoff (profile.rate_limit.recovery_seconds = ${recoveryS}); the spec gives no window length, raise the bound if the target's window is longer`);
    },
  },

  'LIMIT-REQUEST-TIMEOUT': {
    title: 'Documented calls answer within the recommended 30 s client timeout: the token endpoint and every read (GET) whose path the spec shows, user reads for an existing user (a stall is a TIMEOUT failure)',
    safe: false,
    async run(ctx: CheckContext) {
      const limitS = ctx.model.limits.request_timeout?.value;
      if (!limitS) throw new Error('the model has no request_timeout limit');
      const user = await sharedUser(ctx);
      const calls: HttpResponse[] = [await requestToken(ctx, tokenBody(ctx))];
      const reads = [...ctx.model.operations.values()].filter((op) => op.method === 'GET' && !op.pathUnspecified && op.server === 'api');
      for (const op of reads) {
        const h = op.userScoped ? await userHeaders(ctx, user) : await s2sHeaders(ctx);
        calls.push(await ctx.http.send({ op: op.operationId, headers: h }));
      }
      for (const res of calls) check(res.durationMs <= limitS * 1000, `a call took ${Math.round(res.durationMs)} ms, over the ${limitS} s recommended client timeout`, { response: res });
    },
  },

  'LIMIT-TRANSPORT-TLS': {
    title: 'Transport is HTTPS with TLS 1.2 or newer: a 1.2+ handshake succeeds and the target refuses TLS 1.0/1.1, by an alert or by closing the connection between two 1.2+ handshakes that succeed (skipped when the local TLS library cannot offer them or the origin closes every handshake; a plain-http target is a warning)',
    safe: true,
    async run(ctx) {
      const url = new URL(ctx.profile.base_url);
      if (url.protocol === 'http:') {
        // A warning, not a failure: a sandbox or a local build served over http is common; --strict makes it fail the run.
        ctx.warn(`base_url ${url.origin} is plain HTTP: section 8 gives HTTPS with TLS 1.2 or newer as the transport; no TLS version can be checked`);
        return;
      }
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const port = Number(url.port || 443);
      let proto: string;
      try {
        proto = await tlsProtocol(host, port, { minVersion: 'TLSv1.2' }, ctx.signal);
      } catch (err) {
        if (LOCAL_TLS_ERRORS.test(tlsErrorText(err))) return ctx.skip(`the local TLS library cannot offer TLS 1.2+: ${tlsErrorText(err)}`);
        // No alert: a closed connection says the origin may be down, not which versions it takes.
        if (CLOSED.test(tlsErrorText(err))) return ctx.skip(`the TLS 1.2+ handshake with ${url.host} ended by a closed connection, with no TLS alert (${tlsErrorText(err)}): the origin may be down, so no TLS version can be judged`);
        return check(false, `a TLS 1.2+ handshake with ${url.host} failed: ${tlsErrorText(err)}; section 8 requires TLS 1.2 or newer`);
      }
      check(proto === 'TLSv1.2' || proto === 'TLSv1.3', `negotiated ${proto}; section 8 requires TLS 1.2 or newer`);
      let old: string;
      try {
        // SECLEVEL=0 lets the local library offer the old versions at all.
        old = await tlsProtocol(host, port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }, ctx.signal);
      } catch (err) {
        const text = tlsErrorText(err);
        if (LOCAL_TLS_ERRORS.test(text)) return ctx.skip(`the local TLS library cannot offer TLS 1.0/1.1, so their refusal cannot be observed: ${text}`);
        if (PEER_REFUSAL.test(text)) return; // the peer refused the old versions (alert)
        if (CLOSED.test(text)) {
          // Reading closed-refusal: bracketed by two TLS 1.2+ handshakes that succeed, the close is the refusal.
          const after = await tlsProtocol(host, port, { minVersion: 'TLSv1.2' }, ctx.signal).catch((e: unknown) => tlsErrorText(e));
          if (after === 'TLSv1.2' || after === 'TLSv1.3') return ctx.log(`the TLS 1.0/1.1 ClientHello was answered by a closed connection (${text}) between two TLS 1.2+ handshakes that succeeded (${proto}, ${after}): read as a refusal (LIMIT-TRANSPORT-TLS reading closed-refusal)`);
          return ctx.skip(`the TLS 1.0/1.1 attempt ended by a closed connection (${text}) and the TLS 1.2+ handshake after it did not succeed (${after}): a refusal cannot be told from a network failure`);
        }
        return ctx.skip(`the TLS 1.0/1.1 attempt ended without a protocol alert (${text}); a refusal cannot be told from a network failure`);
      }
      check(false, `the target negotiated ${old}; TLS older than 1.2 must be refused (section 8)`);
    },
  },
};

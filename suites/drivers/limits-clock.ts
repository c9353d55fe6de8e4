// Section 8 limits that need the target's clock (control API): the S2S token honoured for its whole
// 48 hours and refused after, and the ERC-20 withdrawal delay. Joined into the limits drivers
// (suites/drivers/limits.ts); the generated suite is suites/generated/limits.ts.

import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Driver, Drivers } from './driver.ts';
import { advanceClock, asUser, bearer, check, chainHeader, control, createUser, createWithdrawal, expect2xx, expectRefusedBy, expectStep, headers, requestToken, rnd, tokenBody, opLabel, field, listItems } from '../kit/index.ts';
import type { RuleId } from '../../src/model/types.ts';

/** The target's clock in Unix seconds: control advanceClock by 0 answers `now` (spec/control.yaml ClockNow). */
export async function serverNow(ctx: CheckContext): Promise<number> {
  const res = await control(ctx, 'advanceClock', { body: { seconds: 0 } });
  const now = res.json?.now;
  // The guard (src/control/guard.ts) already reports an answer without an integer `now` as a malformed
  // adapter answer (spec/control.yaml ClockNow requires it); this stays for an adapter reached unguarded.
  if (typeof now !== 'number' || !Number.isInteger(now)) ctx.skip(`test-control advanceClock (by 0 s) answered no integer now (spec/control.yaml ClockNow), so the server's time is unknown: ${res.text.slice(0, 200)}`);
  return now;
}

/** Moves the target's clock forward to `at` (Unix seconds; no-op when it is already there). */
async function clockTo(ctx: CheckContext, at: number): Promise<void> {
  const now = await serverNow(ctx);
  if (at > now) await advanceClock(ctx, at - now);
}

/**
 * A timestamp in Unix seconds. Section 2 says only "valid_after (timestamp)", so every common reading
 * is accepted: Unix seconds or milliseconds (number or numeric string) and ISO 8601 / RFC 3339 text.
 */
export function timestampSeconds(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : undefined;
  // 1e11 s is the year 5138; anything larger is milliseconds.
  if (n !== undefined) return Number.isFinite(n) && n > 0 ? (n > 1e11 ? n / 1000 : n) : undefined;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

/** Default least delay accepted as section 8's "about 3 seconds" (profile.withdrawal_delay_min_seconds overrides). */
export const WITHDRAWAL_DELAY_MIN_DEFAULT = 2;

/** How far before and after the 48 h the token is used (the two sides of exp). */
const BEFORE_EXP_S = 60;
const AFTER_EXP_S = 5;
/** Withdrawal timing attempts: a request/answer spanning `minDelay` s or more of server time cannot tell "now" from "now + delay". */
/**
 * Tries at a tight enough round trip. The server clock is whole seconds, so even a fast round trip can
 * span a second; under seconds of latency per answer (0-2 s on each of the three calls) about one try
 * in four is tight, so a few tries would skip one run in five: twenty leave about one in a thousand.
 * The bound is in tries; an early tight one ends the check.
 */
const DELAY_ATTEMPTS = 20;

/**
 * The server side of LIMIT-S2S-TOKEN-VALIDITY (the generated limits.s2s.token-validity reads the claims):
 * the token is honoured for its whole 48 h and refused after. A second check of the same rule, so it is
 * registered in suites/models/index.ts as a multi-rule check.
 */
export const s2sTokenLifetime: Driver = {
    title: 'An S2S token is honoured for its whole validity: still accepted 60 s before 48 h (172800 s) after issue and refused with the ErrorExpired row 5 s after exp (server clock advanced through the control API; {op:getConfig})',
    safe: false,
    // Moves the server clock by two days: every token of checks running alongside would expire.
    exclusive: true,
    needs: ['control:advanceClock'],
    alsoCovers: ['ERR-S2S-TOKEN-EXPIRED'],
    async run(ctx) {
      const validity = ctx.model.limits.s2s_token_validity?.value;
      if (!validity) throw new Error('the model has no s2s_token_validity limit');
      const rules: RuleId[] = ['LIMIT-S2S-TOKEN-VALIDITY'];
      const call = (token: string): Promise<HttpResponse> => ctx.http.send({ op: 'getConfig', headers: headers(bearer(token), chainHeader(ctx)) });
      // Issue time bracketed by the server's own clock: the token was issued in [t0, t1], so it is
      // valid at least until t0 + validity and at most until t1 + validity.
      const t0 = await serverNow(ctx);
      const res = await requestToken(ctx, tokenBody(ctx));
      expectStep(res, 'createToken', opLabel(ctx, 'createToken'));
      const t1 = await serverNow(ctx);
      const token = String(field(res.json, 'access_token') ?? '');
      expect2xx(await call(token), `${opLabel(ctx, 'getConfig')} with a fresh S2S token`);
      await clockTo(ctx, t0 + validity - BEFORE_EXP_S);
      const before = await call(token);
      expect2xx(before, `${opLabel(ctx, 'getConfig')} with an S2S token aged ${validity - BEFORE_EXP_S - (t1 - t0)}..${validity - BEFORE_EXP_S} s (the token is valid for ${validity} s)`, rules);
      await clockTo(ctx, t1 + validity + AFTER_EXP_S);
      expectRefusedBy(ctx, await call(token), 'ERR-S2S-TOKEN-EXPIRED', 'LIMIT-S2S-TOKEN-VALIDITY', `${opLabel(ctx, 'getConfig')} with an S2S token ${AFTER_EXP_S} s past its exp`);
    },
  };

export const clockDrivers: Drivers = {
  'LIMIT-WITHDRAWAL-DELAY': {
    title: 'A new ERC-20 withdrawal request (control API) has valid_after at least "about 3 s" (profile.withdrawal_delay_min_seconds, default 2) after the request by the server clock, in the control answer and in {op:listWithdrawalRequests}; no upper bound (production is longer)',
    safe: false,
    needs: ['control:createWithdrawalRequest', 'control:advanceClock'],
    async run(ctx) {
      const rules: RuleId[] = ['LIMIT-WITHDRAWAL-DELAY'];
      const minDelay = ctx.profile.withdrawal_delay_min_seconds ?? WITHDRAWAL_DELAY_MIN_DEFAULT;
      const user = await createUser(ctx);
      for (let attempt = 1; attempt <= DELAY_ATTEMPTS; attempt++) {
        const dest = rnd.address();
        const before = await serverNow(ctx);
        const created = await createWithdrawal(ctx, user, dest);
        const after = await serverNow(ctx);
        // A slow round trip makes a valid_after of "now" look delayed; try again rather than pass it.
        if (after - before >= minDelay) {
          ctx.log(`attempt ${attempt}: the request spanned ${after - before} s of server time, too long to measure a ${minDelay} s delay`);
          continue;
        }
        const list = await asUser(ctx, user, { op: 'listWithdrawalRequests' });
        expectStep(list, 'listWithdrawalRequests', opLabel(ctx, 'listWithdrawalRequests'));
        const to = ctx.model.aliasRule('ALIAS-WITHDRAWAL-TO-ADDRESS');
        const listed = listItems(list.json).find((w) => field(w, to.new) === dest || field(w, to.old) === dest);
        const seen: [string, unknown, HttpResponse | undefined][] = [];
        // The control answer is the adapter's (spec/control.yaml requires none of its fields): judged when
        // it carries valid_after, never failed for leaving it out.
        const fromControl = field(created, 'valid_after');
        if (fromControl !== undefined) seen.push(['the control answer', fromControl, undefined]);
        if (listed) seen.push([opLabel(ctx, 'listWithdrawalRequests'), field(listed, 'valid_after'), list]);
        else ctx.log(`the withdrawal request to ${dest} is not listed by ${opLabel(ctx, 'listWithdrawalRequests')}; only the control answer is checked`);
        if (!seen.length) ctx.skip(`the withdrawal request to ${dest} is not listed by ${opLabel(ctx, 'listWithdrawalRequests')} and the control answer (createWithdrawalRequest) carries no valid_after: the delay cannot be judged`);
        for (const [where, raw, response] of seen) {
          const at = timestampSeconds(raw);
          check(at !== undefined, `${where}: valid_after ${JSON.stringify(raw)} is not a timestamp (section 2)`, { rules, response });
          // The request reached the server at or after `before`: a delay of about 3 s puts valid_after at least that far past it.
          check(at - before >= minDelay, `${where}: valid_after ${JSON.stringify(raw)} is ${Math.round((at - before) * 10) / 10} s after the request (server clock ${before}..${after}); section 8 gives a minimum delay of about 3 s (at least ${minDelay} s accepted)`, { rules, response });
        }
        return;
      }
      ctx.skip(`every one of ${DELAY_ATTEMPTS} withdrawal requests spanned ${minDelay} s or more of server time: a delay of about 3 s cannot be measured`);
    },
  },
};

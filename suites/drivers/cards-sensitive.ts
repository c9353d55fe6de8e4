// Section 4 operations whose paths the spec does not show, on the card side: the SMS confirmation
// (session_id, token) and sensitive card data (card_number with expiry_date, cvv), each of which
// "takes an action_token". Paths come from profile.operations; without them the checks skip naming
// the field. Joined into the cards drivers (suites/drivers/cards.ts).

import { asUser, check, checkStep, createUser, expect2xx, expectSchema, expectStep, field, is2xx, opLabel, requestBody, rnd, type TestUser } from '../kit/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { RuleId } from '../../src/model/types.ts';
import type { Drivers } from './driver.ts';
import { createCard } from './cards-read.ts';

const SMS: RuleId[] = ['ENDPOINT-CONFIRMATION-SMS'];
const DATA: RuleId[] = ['ENDPOINT-CARD-SENSITIVE-DATA'];
const GATED: RuleId[] = ['ENDPOINT-CARD-ACTION-TOKEN'];

/** The spec's example action type of the confirmation that guards card details. */
const CARD_DETAILS_ACTION = 'GetCardDetails';

const filled = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The sandbox code verify SMS code accepts (profile.request_templates.verifySmsCode.code): no operation reads the SMS. */
function smsCode(ctx: CheckContext): unknown {
  return ctx.profile.request_templates?.verifySmsCode?.code;
}

/**
 * Request a code for `action`, then verify it: session_id and token. `rules` names who is judged:
 * the confirmation rule in its own check, a step elsewhere (a failing confirmation blocks the card data check).
 */
async function confirm(ctx: CheckContext, user: TestUser, rules?: RuleId[]): Promise<{ session: HttpResponse; verify?: HttpResponse; token?: string }> {
  const session = await asUser(ctx, user, { op: 'requestSmsCode', body: requestBody(ctx, 'requestSmsCode', { action_type: CARD_DETAILS_ACTION }) });
  const what = `${opLabel(ctx, 'requestSmsCode')} with action_type ${CARD_DETAILS_ACTION}`;
  if (rules) {
    expect2xx(session, what, rules);
    expectSchema(session, 'requestSmsCode', undefined, rules);
    check(filled(field(session.json, 'session_id')), `${what} answered no session_id: ${session.text.slice(0, 200)}`, { rules, response: session });
  } else {
    expectStep(session, 'requestSmsCode', what);
    checkStep(filled(field(session.json, 'session_id')), 'requestSmsCode', `${what} answered no session_id: ${session.text.slice(0, 200)}`, session);
  }
  if (smsCode(ctx) === undefined) return { session };
  const verify = await asUser(ctx, user, { op: 'verifySmsCode', body: requestBody(ctx, 'verifySmsCode', {}, { session_id: field(session.json, 'session_id') }) });
  const vwhat = `${opLabel(ctx, 'verifySmsCode')} with the session_id and the code of profile.request_templates.verifySmsCode`;
  const token = field(verify.json, 'token');
  if (rules) {
    expect2xx(verify, vwhat, rules);
    expectSchema(verify, 'verifySmsCode', undefined, rules);
    check(filled(token), `${vwhat} answered no token: ${verify.text.slice(0, 200)}`, { rules, response: verify });
  } else {
    expectStep(verify, 'verifySmsCode', vwhat);
    checkStep(filled(token), 'verifySmsCode', `${vwhat} answered no token: ${verify.text.slice(0, 200)}`, verify);
  }
  return { session, verify, token: String(token) };
}

type SensitiveOp = 'getCardPan' | 'getCardCvv';

/** The request of a sensitive read, the action_token where reading action-token-source puts it (query on GET/DELETE, else body). */
function sensitiveRequest(ctx: CheckContext, op: SensitiveOp, cardId: string, token: string | undefined) {
  const method = String(ctx.profile.operations?.[op]?.method ?? 'GET').toUpperCase();
  const t: Record<string, string> = token === undefined ? {} : { action_token: token };
  if (method === 'GET' || method === 'DELETE' || method === 'HEAD') return { op, params: { card_id: cardId }, query: t };
  return { op, params: { card_id: cardId }, body: requestBody(ctx, op, {}, t) };
}

/** The card data fields each read returns (section 4). */
const RETURNS: Record<SensitiveOp, string[]> = { getCardPan: ['card_number', 'expiry_date'], getCardCvv: ['cvv'] };

const SENSITIVE_NEEDS = ['operation:getCardPan', 'operation:getCardCvv'] as const;

export const sensitiveDrivers: Drivers = {
  'ENDPOINT-CONFIRMATION-SMS': {
    title: 'Confirmation (paths from profile.operations): request SMS code with action_type GetCardDetails answers a session_id; verify SMS code with it and the sandbox code (profile.request_templates.verifySmsCode.code) answers a token',
    safe: false,
    needs: ['operation:requestSmsCode', 'operation:verifySmsCode'],
    async run(ctx) {
      const user = await createUser(ctx);
      const r = await confirm(ctx, user, SMS);
      if (!r.verify) ctx.couldNotJudge(`${opLabel(ctx, 'verifySmsCode')} answers a token`, 'profile.request_templates.verifySmsCode.code (the SMS code a sandbox accepts; no operation reads it)');
    },
  },

  'ENDPOINT-CARD-SENSITIVE-DATA': {
    title: 'Sensitive card data with an action_token from the SMS confirmation (paths from profile.operations): PAN answers card_number and expiry_date, CVV answers cvv',
    safe: false,
    needs: [...SENSITIVE_NEEDS, 'operation:requestSmsCode', 'operation:verifySmsCode'],
    async run(ctx) {
      if (smsCode(ctx) === undefined) ctx.skip('needs the SMS code a sandbox accepts (profile.request_templates.verifySmsCode.code): the action_token comes from verify SMS code, and no operation reads the SMS');
      const user = await createUser(ctx);
      const card = await createCard(ctx, user);
      for (const op of ['getCardPan', 'getCardCvv'] as const) {
        // One confirmation per read: whether a token serves more than one read is not shown.
        const { token } = await confirm(ctx, user);
        const res = await asUser(ctx, user, sensitiveRequest(ctx, op, card.id, token));
        expect2xx(res, `${opLabel(ctx, op)} of a new card with the action_token`, DATA);
        expectSchema(res, op, undefined, DATA);
        const missing = RETURNS[op].filter((f) => !filled(field(res.json, f)));
        check(missing.length === 0, `${opLabel(ctx, op)} with the action_token answered without ${missing.join(', ')} (section 4: ${RETURNS[op].join(', ')}): ${res.text.slice(0, 200)}`, { rules: DATA, response: res });
      }
    },
  },

  'ENDPOINT-CARD-ACTION-TOKEN': {
    title: 'Sensitive card data takes an action_token (paths from profile.operations): PAN and CVV without one, or with a value no confirmation issued, answer a non-2xx or no card data',
    safe: false,
    needs: [...SENSITIVE_NEEDS],
    async run(ctx) {
      const user = await createUser(ctx);
      const card = await createCard(ctx, user);
      for (const op of ['getCardPan', 'getCardCvv'] as const) {
        for (const [what, token] of [['without an action_token', undefined], ['with an action_token no confirmation issued', `conform-${rnd.hex(8)}`]] as const) {
          const res = await asUser(ctx, user, sensitiveRequest(ctx, op, card.id, token));
          const leaked = is2xx(res) ? RETURNS[op].filter((f) => filled(field(res.json, f))) : [];
          check(leaked.length === 0, `${opLabel(ctx, op)} ${what} answered HTTP ${res.status} with ${leaked.join(', ')}: section 4 says each sensitive read takes an action_token`, { rules: GATED, response: res });
          ctx.log(`${op} ${what}: HTTP ${res.status}`);
        }
      }
    },
  },
};

// Section 4 operations whose paths the spec does not show, served on the reference's own paths
// (DEFAULT_OPERATION_PATHS): the SMS confirmation (request a code: session_id; verify it: token),
// sensitive card data (PAN with expiry: card_number, expiry_date; CVV: cvv), each taking an
// action_token (the confirmation token), the bank account list ({ data: [BankAccount] }) and the
// corridor estimate (estimation_id and fee).

import { randomInt, randomUUID } from 'node:crypto';
import { Fields } from '../fields.ts';
import type { Ctx, Reply } from '../http.ts';
import type { RefState } from '../state/index.ts';
import type { User } from '../state/store.ts';
import { ok, userOf } from './common.ts';

/**
 * The code every SMS session accepts: the reference sends no SMS, so it publishes this sandbox code in
 * its profile (request_templates.verifySmsCode.code), as a vendor sandbox documents its fixed code.
 */
export const SANDBOX_SMS_CODE = '000000';

export function requestSmsCode(ctx: Ctx, st: RefState): Reply {
  const u = userOf(ctx);
  const action_type = new Fields(st.errors).string(ctx.body, 'action_type', 64);
  const session_id = randomUUID();
  st.store.smsSessions.set(session_id, { session_id, user_id: u.user_id, action_type, used: false });
  return ok({ session_id });
}

export function verifySmsCode(ctx: Ctx, st: RefState): Reply {
  const u = userOf(ctx);
  const f = new Fields(st.errors);
  const id = f.string(ctx.body, 'session_id', 64);
  const code = f.string(ctx.body, 'code', 16);
  const s = st.store.smsSessions.get(id);
  if (!s || s.user_id !== u.user_id || s.used) throw st.errors.notFound('session_id');
  if (code !== SANDBOX_SMS_CODE) throw st.errors.invalid('code');
  s.used = true;
  const token = randomUUID();
  st.store.actionTokens.set(token, { user_id: u.user_id, action_type: s.action_type });
  return ok({ token });
}

/** The caller's card of the path, once its action_token (query action_token) is one this user verified. */
function sensitiveCard(ctx: Ctx, st: RefState, u: User) {
  const card = u.cards.find((c) => c.id === ctx.params.card_id);
  if (!card) throw st.errors.notFound('card_id');
  const token = new URLSearchParams(ctx.rawQuery).get('action_token') ?? (typeof ctx.body?.action_token === 'string' ? ctx.body.action_token : undefined);
  // Fault cards.sensitive.no-action-token: the card data is served without the confirmation.
  if (st.fault('cards.sensitive.no-action-token')) return card;
  if (token === undefined || token === '') throw st.errors.missing('action_token');
  const t = st.store.actionTokens.get(token);
  if (!t || t.user_id !== u.user_id) throw st.errors.invalid('action_token');
  return card;
}

/** A stable test PAN per card (Visa test range), from its id. */
function panOf(cardId: string): string {
  const digits = cardId.replace(/[^0-9]/g, '').padEnd(11, '7').slice(0, 11);
  return `40000${digits}`;
}

export function getCardPan(ctx: Ctx, st: RefState): Reply {
  const card = sensitiveCard(ctx, st, userOf(ctx));
  return ok({ card_number: panOf(card.id), expiry_date: '12/30' });
}

export function getCardCvv(ctx: Ctx, st: RefState): Reply {
  sensitiveCard(ctx, st, userOf(ctx));
  return ok({ cvv: String(randomInt(100, 1000)) });
}

/** The user's bank accounts: the SEPA account once activation started, and every other type ordered. */
export function bankAccountsOf(st: RefState, u: User): { id: string; details_id: string; account_type: string; iban?: string; bic?: string }[] {
  const out: { id: string; details_id: string; account_type: string; iban?: string; bic?: string }[] = [];
  const s = u.sepa;
  if (s.details_id !== undefined && (s.status === st.sepa.inProgress || s.status === st.sepa.active)) {
    out.push({ id: s.details_id, details_id: s.details_id, account_type: 'Sepa', ...(s.iban ? { iban: s.iban, bic: s.bic } : {}) });
  }
  for (const [account_type, id] of u.bankDetails) out.push({ id, details_id: id, account_type });
  return out;
}

export const listBankAccounts = (ctx: Ctx, st: RefState): Reply => ok({ data: bankAccountsOf(st, userOf(ctx)) });

/** Corridor estimate: input destination_amount, recipient_id, recipient_payment_details_id, account_id. */
export function estimateCorridorTransfer(ctx: Ctx, st: RefState): Reply {
  const u = userOf(ctx);
  const f = new Fields(st.errors);
  const b = ctx.body;
  const amount = f.amount(b, 'destination_amount') as string;
  const recipientId = f.string(b, 'recipient_id', 64);
  const pdId = f.string(b, 'recipient_payment_details_id', 64);
  const accountId = f.string(b, 'account_id', 64);
  const r = u.recipients.find((x) => x.id === recipientId);
  if (!r) throw st.errors.notFound('recipient_id');
  if (!r.payment_details.some((p) => p.id === pdId)) throw st.errors.notFound('recipient_payment_details_id');
  if (!bankAccountsOf(st, u).some((a) => a.id === accountId)) throw st.errors.notFound('account_id');
  return ok({ estimation_id: randomUUID(), fee: '1.50', destination_amount: amount, recipient_id: recipientId, account_id: accountId });
}

// Push to Card (section 4 rule 3): recipients, estimate, execute, settlement with the activity webhook
// (section 6 rule 1); the activity feed and the statement.

import { randomUUID } from 'node:crypto';
import { Fields } from '../fields.ts';
import type { Ctx, Reply } from '../http.ts';
import type { RefState } from '../state/index.ts';
import type { Activity, PaymentDetails, Recipient, User } from '../state/store.ts';
import * as view from '../views.ts';
import { ok, sleep, userOf } from './common.ts';

const CURRENCY = /^[A-Z]{3}$/;
const MAX_PAGE_SIZE = 100;

export async function createRecipient(ctx: Ctx, st: RefState): Promise<Reply> {
  const E = st.errors;
  const f = new Fields(E);
  const u = userOf(ctx);
  const b = ctx.body;
  const type = f.oneOf(b, 'type', ['Card', 'Sepa', 'Crypto'] as const);
  const first_name = f.string(b, 'first_name', 128);
  const last_name = f.string(b, 'last_name', 128);
  const is_business = f.boolean(b, 'is_business');
  const details: PaymentDetails[] = [];
  if (type === 'Card') {
    const token = f.string(b, 'card_token');
    const t = st.store.cardTokens.get(token);
    if (!t) throw E.notFound('card_token');
    details.push({ id: randomUUID(), type: 'Card', currencies: ['EUR'], card: { last4: t.last4, card_token: token } });
  } else if (type === 'Sepa') {
    const src = (b.sepa && typeof b.sepa === 'object' ? b.sepa : b) as Record<string, unknown>;
    const iban = f.string(src, 'iban', 34);
    const bic = f.string(src, 'bic', 11);
    details.push({ id: randomUUID(), type: 'Sepa', currencies: ['EUR'], sepa: { iban, bic } });
  }
  const rule = 'ALIAS-RECIPIENT-ADDRESS';
  const crypto = st.aliases.read(b, rule);
  if (crypto !== undefined || type === 'Crypto') {
    const addr = f.value(crypto, st.aliases.preferred(rule), 128);
    details.push({ id: randomUUID(), type: 'Crypto', currencies: ['USDC'], recipient_address: addr });
  }
  const r: Recipient = { id: randomUUID(), type, is_business, personal_info: { first_name, last_name }, payment_details: details, created_at: st.clock.nowSec() };
  if (st.fault('recipients.lost-update')) {
    const list = [...u.recipients];
    await sleep(Math.random() * 5);
    list.push(r);
    u.recipients = list;
  } else {
    u.recipients.push(r);
  }
  const out = view.recipient(st, r);
  if (crypto !== undefined || type === 'Crypto') {
    const wh: Record<string, unknown> = { recipient_id: r.id, user_id: u.user_id };
    st.aliases.write(wh, 'ALIAS-WEBHOOK-RECIPIENT-ADDRESS', details[details.length - 1].recipient_address);
    st.webhooks.emit(st.model.webhookPath('recipients'), wh);
  }
  return ok(out);
}

/** A recipient of the caller by id (section 4 "Recipients: ... get"; the path is not shown). */
export function getRecipient(ctx: Ctx, st: RefState): Reply {
  const r = userOf(ctx).recipients.find((x) => x.id === ctx.params.recipient_id);
  if (!r) throw st.errors.notFound('recipient_id');
  return ok(view.recipient(st, r));
}

/** Deletes a recipient of the caller; under `recipients.delete-noop` it answers success and keeps it. */
export function deleteRecipient(ctx: Ctx, st: RefState): Reply {
  const u = userOf(ctx);
  const r = u.recipients.find((x) => x.id === ctx.params.recipient_id);
  if (!r) throw st.errors.notFound('recipient_id');
  if (!st.fault('recipients.delete-noop')) u.recipients = u.recipients.filter((x) => x !== r);
  return ok({ id: r.id });
}

function findPaymentDetails(u: User, recipientId: string | undefined, pdId: string): { r: Recipient; p: PaymentDetails } | undefined {
  for (const r of u.recipients) {
    if (recipientId !== undefined && r.id !== recipientId) continue;
    const p = r.payment_details.find((x) => x.id === pdId);
    if (p) return { r, p };
  }
  return undefined;
}

export function estimateTransfer(ctx: Ctx, st: RefState): Reply {
  const E = st.errors;
  const f = new Fields(E);
  const u = userOf(ctx);
  const b = ctx.body;
  const recipientId = f.optString(b, 'recipient_id');
  if (recipientId !== undefined && !u.recipients.some((r) => r.id === recipientId)) throw E.notFound('recipient_id');
  const pdId = f.string(b, 'payment_details_id');
  const amount = f.amount(b, 'amount') as string;
  const currency = f.optString(b, 'currency', 3) ?? 'EUR';
  if (!CURRENCY.test(currency)) throw E.invalid('currency');
  const hit = findPaymentDetails(u, recipientId, pdId);
  if (!hit) throw E.notFound('payment_details_id');
  if (hit.p.type !== 'Card') throw E.invalid('payment_details_id');
  const est = {
    id: randomUUID(),
    user_id: u.user_id,
    recipient_id: hit.r.id,
    payment_details_id: pdId,
    amount,
    currency,
    rates: [{ token_symbol: 'USDC', rate: '1.0850' }],
    created_at: st.clock.nowSec(),
    used: false,
  };
  st.store.estimations.set(est.id, est);
  return ok({ estimation_id: est.id, rates: est.rates.map((r) => ({ ...r })), amount, currency, recipient_id: est.recipient_id, payment_details_id: pdId, fee: '0.00' });
}

/** Estimations are single-use; the transfer settles after st.settleMs or through the control API. */
export function executeTransfer(ctx: Ctx, st: RefState): Reply {
  const E = st.errors;
  const u = userOf(ctx);
  const id = new Fields(E).string(ctx.body, 'estimation_id');
  const est = st.store.estimations.get(id);
  if (!est || est.user_id !== u.user_id) throw E.notFound('estimation_id');
  if (est.used) throw E.invalid('estimation_id');
  est.used = true;
  const a: Activity = {
    id: randomUUID(),
    user_id: u.user_id,
    type: 'CardTransaction',
    direction: 'Outbound',
    status: 'Pending',
    amount: est.amount,
    currency: est.currency,
    payment_details_id: est.payment_details_id,
    recipient_id: est.recipient_id,
    estimation_id: est.id,
    created_at: st.clock.nowSec(),
  };
  st.store.activities.set(a.id, a);
  u.activities.push(a);
  st.clock.schedule(st.settleMs, () => settleActivity(st, a));
  return ok({ activity_id: a.id, status: a.status });
}

/** Settles a card transfer once: Pending -> Completed, then the activity webhook (section 6 rule 1). */
export function settleActivity(st: RefState, a: Activity): void {
  if (a.status !== 'Pending') return;
  a.status = 'Completed';
  a.completed_at = st.clock.nowSec();
  if (st.fault('webhooks.no-activity')) return;
  const u = st.store.users.get(a.user_id);
  st.webhooks.emit(st.model.webhookPath('activities'), { ...view.activity(a), user_id: a.user_id, user_address: u?.user_address });
}

/** Newest first; page_number from 1, page_size 1-100 (default 20). */
export function listActivity(ctx: Ctx, st: RefState): Reply {
  const E = st.errors;
  const f = new Fields(E);
  const q = new URLSearchParams(ctx.rawQuery);
  const page = q.has('page_number') ? f.integer({ page_number: q.get('page_number') }, 'page_number')! : 1;
  const size = q.has('page_size') ? f.integer({ page_size: q.get('page_size') }, 'page_size')! : 20;
  if (page < 1) throw E.invalid('page_number');
  if (size < 1 || size > MAX_PAGE_SIZE) throw E.invalid('page_size');
  const all = [...userOf(ctx).activities].reverse();
  const data = all.slice((page - 1) * size, page * size).map((a) => activityView(st, a));
  if (st.fault('activity.bare-array')) return ok(data);
  return ok({ data, page_number: page, page_size: size, total: all.length });
}

export function getActivity(ctx: Ctx, st: RefState): Reply {
  const a = st.store.activities.get(ctx.params.activity_id);
  if (!a || a.user_id !== userOf(ctx).user_id) throw st.errors.notFound('activity_id');
  return ok(activityView(st, a));
}

/** An activity item as the feed and the by-id read show it (the fault breaks the direction enum). */
function activityView(st: RefState, a: Activity): Record<string, unknown> {
  const o = view.activity(a);
  if (st.fault('activity.wrong-enum')) o.direction = 'Outgoing';
  return o;
}

/** Statement by date range; the user and wallet addresses (or their aliases) must be the caller's. */
export function statement(ctx: Ctx, st: RefState): Reply {
  const E = st.errors;
  const f = new Fields(E);
  const u = userOf(ctx);
  const b = ctx.body;
  const start = f.integer(b, 'start')!;
  const end = f.integer(b, 'end')!;
  if (end < start) throw E.invalid('end');
  const userRule = 'ALIAS-STATEMENT-OWNER';
  const walletRule = 'ALIAS-STATEMENT-ACCOUNT-ADDRESS';
  const ua = st.aliases.read(b, userRule, true);
  if (ua !== undefined && (typeof ua !== 'string' || ua.toLowerCase() !== u.user_address.toLowerCase())) throw E.invalid(st.aliases.preferred(userRule));
  const wa = st.aliases.read(b, walletRule, true);
  let w = st.store.primaryWallet(u) ?? u.wallets[0];
  if (wa !== undefined) {
    const hit = typeof wa === 'string' ? u.wallets.find((x) => x.wallet_address.toLowerCase() === wa.toLowerCase()) : undefined;
    if (!hit) throw E.invalid(st.aliases.preferred(walletRule));
    w = hit;
  }
  const o: Record<string, unknown> = { start, end };
  st.aliases.write(o, userRule, u.user_address);
  st.aliases.write(o, walletRule, w?.wallet_address ?? null);
  o.data = u.activities.filter((a) => a.created_at >= start && a.created_at <= end).map(view.activity);
  return ok(o);
}

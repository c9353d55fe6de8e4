// Response and webhook payloads. Every deprecated alias is written through st.aliases by model rule
// id (the two names come from spec/rules/aliases.yaml), so both names carry the same value.

import type { RefState } from './state/index.ts';
import type { Activity, Card, Challenge, PaymentDetails, Recipient, User, Wallet, WithdrawalRequest } from './state/store.ts';

type Obj = Record<string, unknown>;

function userBase(st: RefState, u: User): Obj {
  const o: Obj = {};
  st.aliases.write(o, 'ALIAS-USER-READ-ID', u.user_id);
  st.aliases.write(o, 'ALIAS-USER-READ-WALLET-ADDRESS', u.user_address);
  return o;
}

/** GET /api/v1/user: no capabilities (section 9 rule 1). */
export function userV1(st: RefState, u: User): Obj {
  const o = userBase(st, u);
  o.email = u.email;
  o.country = u.country;
  if (st.fault('user.v1-capabilities')) return { ...o, capabilities: capabilities(st, u) };
  return o;
}

/** What a GET /api/v1/user answer shows of a user, and that answer serialised. */
interface V1Json {
  user_id: string;
  user_address: string;
  email: string;
  country: string;
  json: string;
}
const V1_JSON = new WeakMap<User, V1Json>();

/**
 * userV1 serialised, kept per user and reused while the fields it shows hold the same values (every
 * read compares them, so a change to the user can never be answered stale). Alias faults are fixed for
 * a server's life; the capabilities fault reads statuses that change, so it is never cached.
 */
export function userV1Json(st: RefState, u: User): string {
  if (st.fault('user.v1-capabilities')) return JSON.stringify(userV1(st, u));
  const c = V1_JSON.get(u);
  if (c !== undefined && c.user_id === u.user_id && c.user_address === u.user_address && c.email === u.email && c.country === u.country) return c.json;
  const json = JSON.stringify(userV1(st, u));
  V1_JSON.set(u, { user_id: u.user_id, user_address: u.user_address, email: u.email, country: u.country, json });
  return json;
}

/** GET /api/v2/user: with the capabilities array. */
export function userV2(st: RefState, u: User): Obj {
  const o = userBase(st, u);
  o.email = u.email;
  o.country = u.country;
  if (!st.fault('user.v2-no-capabilities')) o.capabilities = capabilities(st, u);
  return o;
}

/** Capability types: the SEPA machine's name, and the card capability the spec shows (section 2). */
export function capabilities(st: RefState, u: User): { type: string; status: string }[] {
  return [
    { type: 'VisaVirtualCard', status: u.visaVirtualCard },
    { type: st.model.machine('SepaAccount').name, status: u.sepa.status },
  ];
}

export function userIds(st: RefState, u: User): Obj {
  return userBase(st, u);
}

export function userWebhook(st: RefState, u: User): Obj {
  const o: Obj = {};
  st.aliases.write(o, 'ALIAS-WEBHOOK-USER-ID', u.user_id);
  st.aliases.write(o, 'ALIAS-WEBHOOK-USER-OWNER', u.user_address);
  o.email = u.email;
  o.country = u.country;
  return o;
}

export function wallet(w: Wallet): Obj {
  return {
    id: w.id,
    wallet_id: w.id,
    wallet_address: w.wallet_address,
    chain_type: w.chain_type,
    role: w.role,
    balances: w.balances.map((b) => ({ ...b })),
  };
}

export function card(c: Card): Obj {
  return { id: c.id, status: c.status, card_data: { ...c.card_data }, created_at: c.created_at };
}

export function challenge(st: RefState, c: Challenge, u: User, webhook = false): Obj {
  const o: Obj = { transaction_id: c.transaction_id };
  st.aliases.write(o, webhook ? 'ALIAS-WEBHOOK-3DS-OWNER' : 'ALIAS-3DS-OWNER', u.user_address);
  o.amount = c.amount;
  o.currency = c.currency;
  o.status = c.status;
  o.created_at = c.created_at;
  o.expires_at = c.expires_at;
  return o;
}

export function withdrawal(st: RefState, w: WithdrawalRequest, webhook = false): Obj {
  const pending = w.status === st.model.machine('WithdrawalRequest').pending_status;
  const status = pending && st.fault('withdrawal.pending-label') ? 'Pending' : w.status;
  const o: Obj = { id: w.id, status, call_data: w.call_data, valid_after: w.valid_after };
  st.aliases.write(o, webhook ? 'ALIAS-WEBHOOK-WITHDRAWAL-ACCOUNT-ADDRESS' : 'ALIAS-WITHDRAWAL-ACCOUNT-ADDRESS', w.wallet_address);
  st.aliases.write(o, webhook ? 'ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS' : 'ALIAS-WITHDRAWAL-TO-ADDRESS', w.destination_address);
  o.token_symbol = w.token_symbol;
  o.amount = w.amount;
  o.created_at = w.created_at;
  return o;
}

export function paymentDetails(st: RefState, p: PaymentDetails): Obj {
  const o: Obj = { id: p.id, type: p.type, currencies: [...p.currencies] };
  if (p.card) o.card = { last4: p.card.last4 };
  if (p.sepa) o.sepa = { ...p.sepa };
  if (p.recipient_address !== undefined) st.aliases.write(o, 'ALIAS-RECIPIENT-ADDRESS', p.recipient_address);
  return o;
}

export function recipient(st: RefState, r: Recipient): Obj {
  const o: Obj = {
    id: r.id,
    type: r.type,
    is_business: r.is_business,
    personal_info: { ...r.personal_info },
    payment_details: r.payment_details.map((p) => paymentDetails(st, p)),
  };
  const crypto = r.payment_details.find((p) => p.recipient_address !== undefined);
  if (crypto) st.aliases.write(o, 'ALIAS-RECIPIENT-ADDRESS', crypto.recipient_address);
  o.created_at = r.created_at;
  return o;
}

export function activity(a: Activity): Obj {
  const o: Obj = {
    id: a.id,
    activity_id: a.id,
    type: a.type,
    direction: a.direction,
    status: a.status,
    amount: a.amount,
    currency: a.currency,
    created_at: a.created_at,
  };
  if (a.payment_details_id !== undefined) o.payment_details_id = a.payment_details_id;
  if (a.recipient_id !== undefined) o.recipient_id = a.recipient_id;
  if (a.completed_at !== undefined) o.completed_at = a.completed_at;
  return o;
}

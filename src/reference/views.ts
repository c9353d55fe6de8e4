// Response and webhook payloads. Every deprecated alias is written through bank.alias() so both
// names carry the same value (section 9 rule 3).

import type { Bank } from './bank.ts';
import type { Activity, Card, Challenge, PaymentDetails, Recipient, User, Wallet, WithdrawalRequest } from './store.ts';

type Obj = Record<string, unknown>;

export function userV1(bank: Bank, u: User): Obj {
  const o: Obj = {};
  bank.alias(o, 'user_id', 'id', u.user_id);
  bank.alias(o, 'user_address', 'wallet_address', u.user_address);
  o.email = u.email;
  o.country = u.country;
  if (bank.fault('user.v1-capabilities')) o.capabilities = capabilities(u);
  return o;
}

export function userV2(bank: Bank, u: User): Obj {
  const o: Obj = {};
  bank.alias(o, 'user_id', 'id', u.user_id);
  bank.alias(o, 'user_address', 'wallet_address', u.user_address);
  o.email = u.email;
  o.country = u.country;
  if (!bank.fault('user.v2-no-capabilities')) o.capabilities = capabilities(u);
  return o;
}

export function capabilities(u: User): { type: string; status: string }[] {
  return [
    { type: 'VisaVirtualCard', status: u.visaVirtualCard },
    { type: 'SepaAccount', status: u.sepa.status },
  ];
}

export function userIds(bank: Bank, u: User): Obj {
  const o: Obj = {};
  bank.alias(o, 'user_id', 'id', u.user_id);
  bank.alias(o, 'user_address', 'wallet_address', u.user_address);
  return o;
}

export function userWebhook(bank: Bank, u: User): Obj {
  const o: Obj = {};
  bank.alias(o, 'user_id', 'id', u.user_id, true);
  bank.alias(o, 'user_address', 'owner', u.user_address, true);
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

export function challenge(bank: Bank, c: Challenge, u: User, webhook = false): Obj {
  const o: Obj = { transaction_id: c.transaction_id };
  bank.alias(o, 'user_address', 'owner', u.user_address, webhook);
  o.amount = c.amount;
  o.currency = c.currency;
  o.status = c.status;
  o.created_at = c.created_at;
  o.expires_at = c.expires_at;
  return o;
}

export function withdrawal(bank: Bank, w: WithdrawalRequest, webhook = false): Obj {
  const o: Obj = { id: w.id, status: w.status, call_data: w.call_data, valid_after: w.valid_after };
  bank.alias(o, 'wallet_address', 'account_address', w.wallet_address, webhook);
  bank.alias(o, 'destination_address', 'to_address', w.destination_address, webhook);
  o.token_symbol = w.token_symbol;
  o.amount = w.amount;
  o.created_at = w.created_at;
  return o;
}

export function paymentDetails(bank: Bank, p: PaymentDetails): Obj {
  const o: Obj = { id: p.id, type: p.type, currencies: [...p.currencies] };
  if (p.card) o.card = { last4: p.card.last4 };
  if (p.sepa) o.sepa = { ...p.sepa };
  if (p.recipient_address !== undefined) bank.alias(o, 'recipient_address', 'address', p.recipient_address);
  return o;
}

export function recipient(bank: Bank, r: Recipient): Obj {
  const o: Obj = {
    id: r.id,
    type: r.type,
    is_business: r.is_business,
    personal_info: { ...r.personal_info },
    payment_details: r.payment_details.map((p) => paymentDetails(bank, p)),
  };
  const crypto = r.payment_details.find((p) => p.recipient_address !== undefined);
  if (crypto) bank.alias(o, 'recipient_address', 'address', crypto.recipient_address);
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

// Wallets, XRPL accounts, ERC-20 withdrawal requests and the FX estimate (section 4).

import { randomUUID } from 'node:crypto';
import { Fields } from '../fields.ts';
import type { Ctx, Reply } from '../http.ts';
import type { RefState } from '../state/index.ts';
import { randomXrplAddress } from '../state/store.ts';
import * as view from '../views.ts';
import { ok, userOf } from './common.ts';

/** GET /api/v1/wallet?wallet_id= (wallet id or its address); default: the Primary Smart Wallet. */
export function getWallet(ctx: Ctx, st: RefState): Reply {
  const u = userOf(ctx);
  const id = new URLSearchParams(ctx.rawQuery).get('wallet_id');
  const w = id ? u.wallets.find((x) => x.id === id || x.wallet_address.toLowerCase() === id.toLowerCase()) : (st.store.primaryWallet(u) ?? u.wallets[0]);
  if (!w) throw st.errors.notFound('wallet_id');
  return ok(view.wallet(w));
}

export const listWallets = (ctx: Ctx): Reply => ok({ data: userOf(ctx).wallets.map(view.wallet) });

export function createXrplAccount(ctx: Ctx, st: RefState): Reply {
  const u = userOf(ctx);
  const w = { id: randomUUID(), wallet_address: randomXrplAddress(), chain_type: 'xrpl' as const, role: null, balances: [], created_at: st.clock.nowSec() };
  u.wallets.push(w);
  return ok({ id: w.id, wallet_address: w.wallet_address });
}

/** Pending requests only: those in the machine's pending status (model). */
export function listWithdrawals(ctx: Ctx, st: RefState): Reply {
  const pending = st.model.machine('WithdrawalRequest').pending_status;
  return ok(userOf(ctx).withdrawals.filter((w) => w.status === pending).map((w) => view.withdrawal(st, w)));
}

export function estimateFx(ctx: Ctx, st: RefState): Reply {
  const f = new Fields(st.errors);
  const b = ctx.body;
  const rule = 'ALIAS-FX-DEPOSIT-ADDRESS';
  const dest = f.value(st.aliases.read(b, rule, true), st.aliases.preferred(rule), 128);
  const amount = f.amount(b, 'amount', false) ?? '100.00';
  const from = f.optString(b, 'from_currency', 8) ?? 'USDC';
  const to = f.optString(b, 'to_currency', 8) ?? 'EUR';
  const o: Record<string, unknown> = { estimation_id: randomUUID() };
  st.aliases.write(o, rule, dest);
  Object.assign(o, { from_currency: from, to_currency: to, amount, rate: '0.9200', estimated_amount: (Number(amount) * 0.92).toFixed(2), fee: '0.00' });
  return ok(o);
}

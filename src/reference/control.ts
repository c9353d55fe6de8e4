// Test-control API (spec/control.yaml), served under {base_url}/__control when enabled. It lets the
// engine provoke states the public API cannot reach: clock, 3DS challenges, SEPA statuses, the
// Primary Smart Wallet, provider-side SEPA completion, withdrawal requests and transfer settlement.

import { randomBytes, randomUUID } from 'node:crypto';
import { settleActivity } from './api.ts';
import type { Bank } from './bank.ts';
import { Fields } from './fields.ts';
import type { Ctx, Reply, Route } from './http.ts';
import { SEPA_STATUSES, newWallet, randomAddress, type Challenge, type User, type WithdrawalRequest } from './store.ts';
import { walletSign } from './signing.ts';
import * as view from './views.ts';

export const CONTROL_PREFIX = '/__control';

const NO_CONTENT: Reply = { status: 204 };

export function controlRoutes(bank: Bank): Route[] {
  const E = bank.errors;
  const f = new Fields(E);
  const store = bank.store;

  const userOf = (ctx: Ctx): User => {
    const u = store.users.get(ctx.params.user_id);
    if (!u) throw E.controlNotFound('user_id');
    return u;
  };

  const url = (v: string, name: string): string => {
    try {
      const u = new URL(v);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
      return v;
    } catch {
      throw E.invalid(name);
    }
  };

  const putWebhooks = (ctx: Ctx): Reply => {
    bank.webhooks.baseUrl = url(f.string(ctx.body, 'base_url', 2048), 'base_url');
    return NO_CONTENT;
  };

  const putIdp = (ctx: Ctx): Reply => {
    const clientId = f.string(ctx.body, 'client_id');
    const appId = f.string(ctx.body, 'app_id');
    const jwks = url(f.string(ctx.body, 'jwks_url', 2048), 'jwks_url');
    const client = store.clients.get(clientId);
    if (!client) throw E.controlNotFound('client_id');
    bank.forgetJwks(jwks);
    store.idpApps.set(appId, { app_id: appId, company_id: client.company_id, jwks_url: jwks });
    return NO_CONTENT;
  };

  const advanceClock = (ctx: Ctx): Reply => {
    const s = ctx.body.seconds;
    if (s === undefined || s === null) throw E.missing('seconds');
    if (typeof s !== 'number' || !Number.isFinite(s)) throw E.invalid('seconds');
    bank.clockOffsetMs += s * 1000;
    return { status: 200, body: { now: bank.nowSec() } };
  };

  const create3ds = (ctx: Ctx): Reply => {
    const u = userOf(ctx);
    const amount = f.amount(ctx.body, 'amount', false) ?? '10.00';
    const currency = f.optString(ctx.body, 'currency', 3) ?? 'EUR';
    const now = bank.nowSec();
    const c: Challenge = {
      transaction_id: randomUUID(),
      user_id: u.user_id,
      amount,
      currency,
      created_at: now,
      expires_at: now + bank.threeDsWindowSeconds,
      status: 'Pending',
    };
    store.challenges.set(c.transaction_id, c);
    u.challenges.push(c);
    bank.webhooks.emit('/v2/webhooks/3ds', { ...view.challenge(bank, c, u, true), user_id: u.user_id });
    return { status: 201, body: { transaction_id: c.transaction_id, expires_at: c.expires_at } };
  };

  const putCapability = (ctx: Ctx): Reply => {
    const u = userOf(ctx);
    u.sepa.status = f.oneOf(ctx.body, 'status', SEPA_STATUSES);
    return NO_CONTENT;
  };

  const putPrimaryWallet = (ctx: Ctx): Reply => {
    const u = userOf(ctx);
    const present = f.boolean(ctx.body, 'present');
    const primary = store.primaryWallet(u);
    if (!present && primary) primary.role = null;
    if (present && !primary) {
      const w = u.wallets.find((x) => x.chain_type === 'ethereum');
      if (w) w.role = 'Primary';
      else u.wallets.unshift(newWallet(bank.nowSec()));
    }
    return NO_CONTENT;
  };

  const completeSepa = (ctx: Ctx): Reply => {
    const u = userOf(ctx);
    if (u.sepa.status !== 'InProgress') throw E.invalid('status');
    u.sepa.status = 'Active';
    u.sepa.details_id ??= randomUUID();
    if (!bank.fault('webhooks.no-bank-account')) {
      bank.webhooks.emit(bankAccountWebhookPath, {
        user_id: u.user_id,
        details_id: u.sepa.details_id,
        account_type: 'Sepa',
        status: 'Active',
        iban: `DE89${randomBytes(9).toString('hex').replace(/[a-f]/g, (ch) => String(ch.charCodeAt(0) % 10)).slice(0, 18)}`,
        bic: 'REFBDEFFXXX',
      });
    }
    return NO_CONTENT;
  };

  const sign = (ctx: Ctx): Reply => {
    const u = userOf(ctx);
    const challenge = f.string(ctx.body, 'challenge', 4096);
    const w = store.primaryWallet(u);
    if (!w) throw E.notFound('wallet_address');
    return { status: 200, body: { signed_challenge: walletSign(w.wallet_address, challenge), wallet_address: w.wallet_address } };
  };

  const createWithdrawal = (ctx: Ctx): Reply => {
    const u = userOf(ctx);
    const dest = f.optString(ctx.body, 'destination_address', 128) ?? randomAddress();
    const wallet = store.primaryWallet(u) ?? u.wallets[0];
    const now = bank.nowSec();
    const amountUnits = 10_000_000n; // 10 USDC (6 decimals)
    const destHex = /^0x[0-9a-fA-F]{40}$/.test(dest) ? dest.slice(2).toLowerCase() : '0'.repeat(40);
    const w: WithdrawalRequest = {
      id: randomUUID(),
      user_id: u.user_id,
      status: 'Requested',
      // ERC-20 transfer(address,uint256)
      call_data: '0xa9059cbb' + destHex.padStart(64, '0') + amountUnits.toString(16).padStart(64, '0'),
      valid_after: bank.fault('withdrawal.valid-after-now') ? now : now + 3,
      wallet_address: wallet?.wallet_address ?? '',
      destination_address: dest,
      token_symbol: 'USDC',
      amount: '10.00',
      created_at: now,
    };
    u.withdrawals.push(w);
    bank.webhooks.emit('/v2/webhooks/erc-withdrawals', { ...view.withdrawal(bank, w, true), user_id: u.user_id });
    return { status: 201, body: view.withdrawal(bank, w) };
  };

  const completeActivity = (ctx: Ctx): Reply => {
    const a = store.activities.get(ctx.params.activity_id);
    if (!a) throw E.controlNotFound('activity_id');
    settleActivity(bank, a);
    return NO_CONTENT;
  };

  const r = (method: string, path: string, name: string, handler: Route['handler']): Route => ({
    method,
    path: CONTROL_PREFIX + path,
    operationId: `control:${name}`,
    auth: 'none',
    handler,
  });
  return [
    r('PUT', '/webhooks', 'setWebhookBaseUrl', putWebhooks),
    r('PUT', '/idp', 'setIdpConfig', putIdp),
    r('POST', '/clock/advance', 'advanceClock', advanceClock),
    r('POST', '/users/{user_id}/3ds', 'create3dsChallenge', create3ds),
    r('PUT', '/users/{user_id}/capabilities/SepaAccount', 'setSepaCapabilityStatus', putCapability),
    r('PUT', '/users/{user_id}/primary-wallet', 'setPrimaryWallet', putPrimaryWallet),
    r('POST', '/users/{user_id}/sepa/complete', 'completeSepaActivation', completeSepa),
    r('POST', '/users/{user_id}/sign', 'signChallenge', sign),
    r('POST', '/users/{user_id}/withdrawal-requests', 'createWithdrawalRequest', createWithdrawal),
    r('POST', '/activities/{activity_id}/complete', 'completeActivity', completeActivity),
  ];
}

/** Path of the bank account webhook (not shown by the spec; published as profile.webhook_paths.bank_account). */
export const bankAccountWebhookPath = '/v2/webhooks/bank-accounts';

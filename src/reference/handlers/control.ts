// Test-control API (spec/control.yaml), served under {base_url}/__control when enabled. It lets the
// engine provoke states the public API cannot reach: clock, 3DS challenges, SEPA statuses, the Primary
// Smart Wallet, provider-side SEPA completion, withdrawal requests and transfer settlement. Paths come
// from spec/control.yaml (routes.ts); this table is keyed by its operationIds.

import { randomBytes, randomUUID } from 'node:crypto';
import type { ControlOperationId } from '../../model/types.ts';
import { Fields } from '../fields.ts';
import type { Ctx, Reply } from '../http.ts';
import type { RefState } from '../state/index.ts';
import { walletSign } from '../state/signing.ts';
import { newWallet, randomAddress, type Challenge, type Recipient, type User, type WithdrawalRequest } from '../state/store.ts';
import * as view from '../views.ts';
import type { Handler } from './common.ts';
import { settleActivity } from './transfers.ts';
import { userWebhookPath } from './users.ts';

export const CONTROL_PREFIX = '/__control';

/** Path of the bank account webhook (not shown by the spec; published as profile.webhook_paths.bank_account). */
export const BANK_ACCOUNT_WEBHOOK_PATH = '/v2/webhooks/bank-accounts';
/** Path of the card limit webhook (not shown by the spec; published as profile.webhook_paths.card_limit). */
export const CARD_LIMIT_WEBHOOK_PATH = '/v2/webhooks/card-limits';

const NO_CONTENT: Reply = { status: 204 };
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function userOf(ctx: Ctx, st: RefState): User {
  const u = st.store.users.get(ctx.params.user_id);
  if (!u) throw st.errors.controlNotFound('user_id');
  return u;
}

function url(st: RefState, v: string, name: string): string {
  try {
    const u = new URL(v);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    return v;
  } catch {
    throw st.errors.invalid(name);
  }
}

const fields = (st: RefState) => new Fields(st.errors);

/** The 3DS decision window in seconds: the model's 5 minutes unless a window-length fault point shortens or stretches it. */
function threeDsWindow(st: RefState): number {
  if (st.fault('3ds.window-short')) return 60;
  if (st.fault('3ds.window-long')) return 2 * st.threeDsWindowSeconds;
  return st.threeDsWindowSeconds;
}

/**
 * A debt case of the user, or the user's company (section 6: payloads not shown; the reference's own).
 * The `webhooks.debt-cases-wrong-path` and `webhooks.corporations-wrong-path` faults deliver them on a
 * path other than section 6's (underscore / singular), as a hand-typed route would.
 */
function emitAccountEvent(st: RefState, u: User, kind: 'debt-cases' | 'corporations'): void {
  const documented = st.model.webhookPath(kind);
  const path = kind === 'debt-cases'
    ? (st.fault('webhooks.debt-cases-wrong-path') ? documented.replace('debt-cases', 'debt_cases') : documented)
    : (st.fault('webhooks.corporations-wrong-path') ? documented.replace(/corporations$/, 'corporation') : documented);
  const payload = kind === 'debt-cases'
    ? { debt_case_id: randomUUID(), user_id: u.user_id, status: 'Open', amount: '12.50', currency: 'EUR', created_at: st.clock.nowSec() }
    : { corporation_id: u.company_id, user_id: u.user_id, status: 'Active', updated_at: st.clock.nowSec() };
  st.webhooks.emit(path, payload);
}

/** A limit change of the user's newest card (one is issued when the user has none); the card limit webhook carries no owner field (section 6). */
function emitCardLimit(st: RefState, u: User): void {
  const now = st.clock.nowSec();
  let card = u.cards.at(-1);
  if (!card) {
    card = { id: randomUUID(), status: 'Active', card_data: { card_name: 'limit test', format: 'virtual' }, created_at: now };
    u.cards.push(card);
  }
  const payload: Record<string, unknown> = { card_id: card.id, user_id: u.user_id, limit: { amount: '500.00', currency: 'EUR', period: 'Monthly' }, updated_at: now };
  if (st.fault('webhooks.card-limit-owner')) payload.owner = u.user_address;
  st.webhooks.emit(CARD_LIMIT_WEBHOOK_PATH, payload);
}

export const CONTROL_HANDLERS = {
  setWebhookBaseUrl(ctx, st) {
    st.webhooks.baseUrl = url(st, fields(st).string(ctx.body, 'base_url', 2048), 'base_url');
    return NO_CONTENT;
  },

  setIdpConfig(ctx, st) {
    const f = fields(st);
    const clientId = f.string(ctx.body, 'client_id');
    const appId = f.string(ctx.body, 'app_id');
    const jwks = url(st, f.string(ctx.body, 'jwks_url', 2048), 'jwks_url');
    const client = st.store.clients.get(clientId);
    if (!client) throw st.errors.controlNotFound('client_id');
    st.jwks.delete(jwks);
    st.store.idpApps.set(appId, { app_id: appId, company_id: client.company_id, jwks_url: jwks });
    return NO_CONTENT;
  },

  clearIdpConfig(ctx, st) {
    const appId = fields(st).string(ctx.body, 'app_id');
    if (st.store.idpApps.delete(appId)) st.store.clearedIdpApps.add(appId);
    return NO_CONTENT;
  },

  advanceClock(ctx, st) {
    const s = ctx.body.seconds;
    if (s === undefined || s === null) throw st.errors.missing('seconds');
    if (typeof s !== 'number' || !Number.isFinite(s)) throw st.errors.invalid('seconds');
    st.clock.advance(s);
    return { status: 200, body: { now: st.clock.nowSec() } };
  },

  resetClock(_ctx, st) {
    st.clock.reset();
    return { status: 200, body: { now: st.clock.nowSec() } };
  },

  create3dsChallenge(ctx, st) {
    const u = userOf(ctx, st);
    const f = fields(st);
    const amount = f.amount(ctx.body, 'amount', false) ?? '10.00';
    const currency = f.optString(ctx.body, 'currency', 3) ?? 'EUR';
    const now = st.clock.nowSec();
    const c: Challenge = { transaction_id: randomUUID(), user_id: u.user_id, amount, currency, created_at: now, expires_at: now + threeDsWindow(st), status: 'Pending' };
    st.store.challenges.set(c.transaction_id, c);
    u.challenges.push(c);
    st.webhooks.emit(st.model.webhookPath('3ds'), { ...view.challenge(st, c, u, true), user_id: u.user_id });
    return { status: 201, body: { transaction_id: c.transaction_id, expires_at: c.expires_at } };
  },

  setSepaCapabilityStatus(ctx, st) {
    userOf(ctx, st).sepa.status = fields(st).oneOf(ctx.body, 'status', st.sepa.all);
    return NO_CONTENT;
  },

  setPrimaryWallet(ctx, st) {
    const u = userOf(ctx, st);
    const present = fields(st).boolean(ctx.body, 'present');
    const primary = st.store.primaryWallet(u);
    if (!present && primary) primary.role = null;
    if (present && !primary) {
      const w = u.wallets.find((x) => x.chain_type === 'ethereum');
      if (w) w.role = 'Primary';
      else u.wallets.unshift(newWallet(st.clock.nowSec()));
    }
    return NO_CONTENT;
  },

  /** Provider-side completion: InProgress -> Active, then the bank account webhook (section 6 rule 2). */
  completeSepaActivation(ctx, st) {
    const u = userOf(ctx, st);
    if (u.sepa.status !== st.sepa.inProgress) throw st.errors.invalid('status');
    u.sepa.status = st.sepa.active;
    u.sepa.details_id ??= randomUUID();
    // The account's details, kept so the bank account list shows the same ones the webhook reports.
    u.sepa.iban ??= `DE89${randomBytes(9).toString('hex').replace(/[a-f]/g, (ch) => String(ch.charCodeAt(0) % 10)).slice(0, 18)}`;
    u.sepa.bic ??= 'REFBDEFFXXX';
    if (!st.fault('webhooks.no-bank-account')) {
      st.webhooks.emit(BANK_ACCOUNT_WEBHOOK_PATH, {
        user_id: u.user_id,
        details_id: u.sepa.details_id,
        account_type: 'Sepa',
        status: st.sepa.active,
        iban: u.sepa.iban,
        bic: u.sepa.bic,
      });
    }
    return NO_CONTENT;
  },

  /** The test wallet signs as the user's Primary Smart Wallet would (scheme not shown: state/signing.ts). */
  signChallenge(ctx, st) {
    const u = userOf(ctx, st);
    const challenge = fields(st).string(ctx.body, 'challenge', 4096);
    const w = st.store.primaryWallet(u);
    if (!w) throw st.errors.notFound('wallet_address');
    return { status: 200, body: { signed_challenge: walletSign(w.wallet_address, challenge), wallet_address: w.wallet_address } };
  },

  createWithdrawalRequest(ctx, st) {
    const u = userOf(ctx, st);
    const dest = fields(st).optString(ctx.body, 'destination_address', 128) ?? randomAddress();
    const wallet = st.store.primaryWallet(u) ?? u.wallets[0];
    const now = st.clock.nowSec();
    const amountUnits = 10_000_000n; // 10 USDC (6 decimals)
    const destHex = EVM_ADDRESS.test(dest) ? dest.slice(2).toLowerCase() : '0'.repeat(40);
    const w: WithdrawalRequest = {
      id: randomUUID(),
      user_id: u.user_id,
      status: st.model.machine('WithdrawalRequest').pending_status!,
      // ERC-20 transfer(address,uint256)
      call_data: '0xa9059cbb' + destHex.padStart(64, '0') + amountUnits.toString(16).padStart(64, '0'),
      valid_after: st.fault('withdrawal.valid-after-now') ? now : now + st.withdrawalDelaySeconds,
      wallet_address: wallet?.wallet_address ?? '',
      destination_address: dest,
      token_symbol: 'USDC',
      amount: '10.00',
      created_at: now,
    };
    u.withdrawals.push(w);
    st.webhooks.emit(st.model.webhookPath('erc-withdrawals'), { ...view.withdrawal(st, w, true), user_id: u.user_id });
    return { status: 201, body: view.withdrawal(st, w) };
  },

  /**
   * One webhook of a section 6 kind about the user, as its real event would emit it: the user webhook,
   * or a new pending 3DS challenge / ERC-20 withdrawal request / crypto recipient (their handlers emit it).
   */
  triggerWebhook(ctx, st) {
    const u = userOf(ctx, st);
    const kind = ctx.params.kind;
    const fresh = { ...ctx, body: {} };
    if (kind === 'user') st.webhooks.emit(userWebhookPath(st), view.userWebhook(st, u));
    else if (kind === '3ds') CONTROL_HANDLERS.create3dsChallenge(fresh, st);
    else if (kind === 'erc-withdrawals') CONTROL_HANDLERS.createWithdrawalRequest(fresh, st);
    else if (kind === 'recipients') {
      const r: Recipient = { id: randomUUID(), type: 'Crypto', is_business: false, personal_info: { first_name: 'Test', last_name: 'Recipient' }, payment_details: [{ id: randomUUID(), type: 'Crypto', currencies: ['USDC'], recipient_address: randomAddress() }], created_at: st.clock.nowSec() };
      u.recipients.push(r);
      const wh: Record<string, unknown> = { recipient_id: r.id, user_id: u.user_id };
      st.aliases.write(wh, 'ALIAS-WEBHOOK-RECIPIENT-ADDRESS', r.payment_details[0].recipient_address);
      st.webhooks.emit(st.model.webhookPath('recipients'), wh);
    } else if (kind === 'debt-cases' || kind === 'corporations') emitAccountEvent(st, u, kind);
    else if (kind === 'card_limit') emitCardLimit(st, u);
    else throw st.errors.invalid('kind');
    return { status: 202 };
  },

  completeActivity(ctx, st) {
    const a = st.store.activities.get(ctx.params.activity_id);
    if (!a) throw st.errors.controlNotFound('activity_id');
    settleActivity(st, a);
    return NO_CONTENT;
  },
} satisfies Record<ControlOperationId, Handler>;

// Section 4 endpoints. Handlers validate input with Fields (section 7 validation bodies), read and
// write the Store scoped to ctx.caller / ctx.user, and build responses through views.ts.

import { randomBytes, randomUUID } from 'node:crypto';
import type { Bank } from './bank.ts';
import { Fields } from './fields.ts';
import type { Ctx, Reply, Route } from './http.ts';
import { SEPA_STATUSES, randomXrplAddress, type Activity, type Card, type PaymentDetails, type Recipient, type User } from './store.ts';
import * as view from './views.ts';
import { walletVerify } from './signing.ts';

/** Default paths of the operations the spec does not show (published in the profile). */
export const DEFAULT_OPERATION_PATHS: Record<string, { method: string; path: string }> = {
  approve3ds: { method: 'POST', path: '/api/v1/cards/3ds/requests/{transaction_id}/approve' },
  decline3ds: { method: 'POST', path: '/api/v1/cards/3ds/requests/{transaction_id}/decline' },
  activateCard: { method: 'POST', path: '/api/v1/cards/{card_id}/activate' },
  blockCard: { method: 'POST', path: '/api/v1/cards/{card_id}/block' },
  unblockCard: { method: 'POST', path: '/api/v1/cards/{card_id}/unblock' },
  closeCard: { method: 'POST', path: '/api/v1/cards/{card_id}/close' },
  listActivity: { method: 'GET', path: '/api/v1/activity' },
  getActivity: { method: 'GET', path: '/api/v1/activity/{activity_id}' },
};

export const BANK_ACCOUNT_TYPES = ['Sepa', 'Ach', 'FasterPayment', 'Spei'] as const;
const COUNTRY = /^[A-Za-z]{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const NUMERIC = /^[0-9]+$/;
const CURRENCY = /^[A-Z]{3}$/;
const MAX_PAGE_SIZE = 100;

const ok = (body: unknown): Reply => ({ status: 200, body });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function apiRoutes(bank: Bank): Route[] {
  const f = new Fields(bank.errors);
  const E = bank.errors;
  const store = bank.store;
  const user = (ctx: Ctx): User => ctx.user as User;

  // ---------------------------------------------------------------- token (section 5)
  const createToken = (ctx: Ctx): Reply => {
    const b = ctx.body;
    if (typeof b.client_id === 'string' && b.client_id !== '') bank.rateLimit('client', b.client_id);
    const missing = (v: unknown) => v === undefined || v === null || v === '';
    if (missing(b.client_id)) throw E.rule('ERR-TOKEN-CLIENT-ID-MISSING');
    if (missing(b.client_secret)) throw E.rule('ERR-TOKEN-CLIENT-SECRET-MISSING');
    if (typeof b.client_id !== 'string') throw E.invalid('client_id');
    if (typeof b.client_secret !== 'string') throw E.invalid('client_secret');
    const grantOk = b.grant_type === 'client_credentials' || bank.fault('token.accept-any-grant-type');
    const wrongOrder = bank.fault('token.wrong-error-order');
    if (!grantOk && !wrongOrder) throw E.rule('ERR-TOKEN-GRANT-TYPE-INVALID');
    const client = store.clients.get(b.client_id);
    if (!client) throw E.rule('ERR-TOKEN-UNKNOWN-CLIENT');
    if (client.secret === null) throw E.rule('ERR-TOKEN-NO-SECRET-CONFIGURED');
    if (client.secret !== b.client_secret) throw E.rule('ERR-TOKEN-WRONG-SECRET');
    if (!grantOk) throw E.rule('ERR-TOKEN-GRANT-TYPE-INVALID');
    if (store.companies.get(client.company_id)?.type === 'Restricted') throw E.rule('ERR-TOKEN-COMPANY-TYPE');
    return ok(bank.issueS2sToken(client));
  };

  // ---------------------------------------------------------------- users
  const createUser = (ctx: Ctx): Reply => {
    const b = ctx.body;
    const companyId = ctx.caller!.company_id;
    const email = f.string(b, 'email', 254);
    if (!EMAIL.test(email)) throw E.invalid('email');
    const country = f.string(b, 'country', 2);
    if (!COUNTRY.test(country)) throw E.invalid('country');
    const address = f.value(bank.aliasPair(b, 'user_address', 'wallet_address', true), 'user_address', 64);
    if (!bank.isEvmAddress(address)) throw E.invalid('user_address');
    const company = store.company(companyId);
    if (company.usersByEmail.has(email.toLowerCase())) throw E.invalid('email');
    if (company.usersByAddress.has(address.toLowerCase())) throw E.invalid('user_address');
    const u = store.addUser(companyId, email, country.toUpperCase(), address, bank.nowSec());
    bank.webhooks.emit('/v2/webhooks/user', view.userWebhook(bank, u));
    const o: Record<string, unknown> = {};
    bank.alias(o, 'user_id', 'id', u.user_id);
    return ok(o);
  };

  const registerRetail = (ctx: Ctx): Reply => {
    const caller = ctx.caller!;
    const country = f.string(ctx.body, 'country', 2);
    if (!COUNTRY.test(country)) throw E.invalid('country');
    let u = bank.idpUser(caller);
    if (!u) {
      u = store.addUser(caller.company_id, caller.idp!.email, country.toUpperCase(), caller.idp!.wallet, bank.nowSec());
      u.idp_sub = caller.idp!.sub;
      bank.webhooks.emit('/v2/webhooks/user', view.userWebhook(bank, u));
    }
    // Section 4 rule 5: registering returns only id.
    return ok({ id: u.user_id });
  };

  const authorize = (ctx: Ctx): Reply => {
    const u = ctx.caller!.kind === 'idp' ? bank.idpUser(ctx.caller!) : ctx.user;
    if (!u) throw E.rule('ERR-S2S-USER-NOT-FOUND');
    return ok(bank.issueUserToken(u));
  };

  // ---------------------------------------------------------------- config reads
  const getConfig = (ctx: Ctx): Reply =>
    ok({
      company_id: ctx.caller!.company_id,
      default_chain_id: '84532',
      chains: [{ chain_id: '84532', name: 'Base Sepolia', sandbox: true }],
      api_versions: ['v1', 'v2'],
      bank_account_types: [...BANK_ACCOUNT_TYPES],
      card_formats: ['virtual', 'plastic'],
      tokens: [{ token_symbol: 'USDC', token_address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', decimals: 6 }],
    });

  const getValidationRules = (): Reply =>
    ok({
      rules: [
        { field: 'email', type: 'string', max_length: 254, pattern: EMAIL.source },
        { field: 'country', type: 'string', pattern: COUNTRY.source },
        { field: 'user_address', type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
        { field: 'card_name', type: 'string', min_length: 1, max_length: 64 },
        { field: 'chain', type: 'string', pattern: NUMERIC.source },
      ],
    });

  // ---------------------------------------------------------------- wallets
  const getWallet = (ctx: Ctx): Reply => {
    const u = user(ctx);
    const id = new URLSearchParams(ctx.rawQuery).get('wallet_id');
    const w = id ? u.wallets.find((x) => x.id === id || x.wallet_address.toLowerCase() === id.toLowerCase()) : (store.primaryWallet(u) ?? u.wallets[0]);
    if (!w) throw E.notFound('wallet_id');
    return ok(view.wallet(w));
  };

  const listWallets = (ctx: Ctx): Reply => ok({ data: user(ctx).wallets.map(view.wallet) });

  const createXrplAccount = (ctx: Ctx): Reply => {
    const u = user(ctx);
    const w = { id: randomUUID(), wallet_address: randomXrplAddress(), chain_type: 'xrpl' as const, role: null, balances: [], created_at: bank.nowSec() };
    u.wallets.push(w);
    return ok({ id: w.id, wallet_address: w.wallet_address });
  };

  // ---------------------------------------------------------------- cards
  const listCards = (ctx: Ctx): Reply => ok({ data: user(ctx).cards.map(view.card) });

  const createVirtualCard = (ctx: Ctx): Reply => {
    const name = f.string(ctx.body, 'card_name', 64);
    const c: Card = { id: randomUUID(), status: 'Active', card_data: { card_name: name, format: 'virtual' }, created_at: bank.nowSec() };
    user(ctx).cards.push(c);
    return ok(view.card(c));
  };

  const cardAction = (action: 'activate' | 'block' | 'unblock' | 'close') => (ctx: Ctx): Reply => {
    const c = user(ctx).cards.find((x) => x.id === ctx.params.card_id);
    if (!c) throw E.notFound('card_id');
    if (c.status === 'Closed' && !bank.fault('cards.close-not-terminal')) throw E.invalid('status');
    switch (action) {
      case 'activate':
        if (c.status === 'Blocked') throw E.invalid('status');
        c.status = 'Active';
        break;
      case 'block':
        c.status = 'Blocked';
        break;
      case 'unblock':
        if (c.status === 'Inactive') throw E.invalid('status');
        c.status = 'Active';
        break;
      case 'close':
        c.status = 'Closed';
        break;
    }
    return ok(view.card(c));
  };

  // ---------------------------------------------------------------- 3DS (sections 3, 7 other rule 1)
  const list3ds = (ctx: Ctx): Reply => {
    const u = user(ctx);
    const now = bank.nowSec();
    const ignoreExpiry = bank.fault('3ds.ignore-expiry');
    return ok(u.challenges.filter((c) => c.status === 'Pending' && (ignoreExpiry || now < c.expires_at)).map((c) => view.challenge(bank, c, u)));
  };

  const decide3ds = (decision: 'Approved' | 'Declined') => async (ctx: Ctx): Promise<Reply> => {
    const u = user(ctx);
    const c = store.challenges.get(ctx.params.transaction_id);
    const visible = c && (c.user_id === u.user_id || bank.fault('3ds.other-user'));
    const pending = c && (c.status === 'Pending' || bank.fault('3ds.allow-replay'));
    const live = c && (bank.nowSec() < c.expires_at || bank.fault('3ds.ignore-expiry'));
    if (!c || !visible || !pending || !live) throw E.rule('ERR-3DS-NOT-FOUND');
    // Check and set run in one synchronous step: the first decision wins, no lost update.
    if (bank.fault('3ds.lost-update')) await sleep(100);
    c.status = decision;
    return ok({ transaction_id: c.transaction_id, status: decision });
  };

  // ---------------------------------------------------------------- recipients and Push to Card
  const createRecipient = async (ctx: Ctx): Promise<Reply> => {
    const u = user(ctx);
    const b = ctx.body;
    const type = f.oneOf(b, 'type', ['Card', 'Sepa', 'Crypto'] as const);
    const first_name = f.string(b, 'first_name', 128);
    const last_name = f.string(b, 'last_name', 128);
    const is_business = f.boolean(b, 'is_business');
    const details: PaymentDetails[] = [];
    if (type === 'Card') {
      const token = f.string(b, 'card_token');
      const t = store.cardTokens.get(token);
      if (!t) throw E.notFound('card_token');
      details.push({ id: randomUUID(), type: 'Card', currencies: ['EUR'], card: { last4: t.last4, card_token: token } });
    } else if (type === 'Sepa') {
      const src = (b.sepa && typeof b.sepa === 'object' ? b.sepa : b) as Record<string, unknown>;
      const iban = f.string(src, 'iban', 34);
      const bic = f.string(src, 'bic', 11);
      details.push({ id: randomUUID(), type: 'Sepa', currencies: ['EUR'], sepa: { iban, bic } });
    }
    const crypto = bank.aliasPair(b, 'recipient_address', 'address');
    if (crypto !== undefined || type === 'Crypto') {
      const addr = f.value(crypto, 'recipient_address', 128);
      details.push({ id: randomUUID(), type: 'Crypto', currencies: ['USDC'], recipient_address: addr });
    }
    const r: Recipient = { id: randomUUID(), type, is_business, personal_info: { first_name, last_name }, payment_details: details, created_at: bank.nowSec() };
    if (bank.fault('recipients.lost-update')) {
      const list = [...u.recipients];
      await sleep(Math.random() * 5);
      list.push(r);
      u.recipients = list;
    } else {
      u.recipients.push(r);
    }
    const out = view.recipient(bank, r);
    if (crypto !== undefined || type === 'Crypto') {
      const wh: Record<string, unknown> = { recipient_id: r.id, user_id: u.user_id };
      bank.alias(wh, 'recipient_address', 'address', details[details.length - 1].recipient_address, true);
      bank.webhooks.emit('/v2/webhooks/recipients', wh);
    }
    return ok(out);
  };

  const findPaymentDetails = (u: User, recipientId: string | undefined, pdId: string): { r: Recipient; p: PaymentDetails } | undefined => {
    for (const r of u.recipients) {
      if (recipientId !== undefined && r.id !== recipientId) continue;
      const p = r.payment_details.find((x) => x.id === pdId);
      if (p) return { r, p };
    }
    return undefined;
  };

  const estimateTransfer = (ctx: Ctx): Reply => {
    const u = user(ctx);
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
      created_at: bank.nowSec(),
      used: false,
    };
    store.estimations.set(est.id, est);
    return ok({ estimation_id: est.id, rates: est.rates.map((r) => ({ ...r })), amount, currency, recipient_id: est.recipient_id, payment_details_id: pdId, fee: '0.00' });
  };

  const executeTransfer = (ctx: Ctx): Reply => {
    const u = user(ctx);
    const id = f.string(ctx.body, 'estimation_id');
    const est = store.estimations.get(id);
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
      created_at: bank.nowSec(),
    };
    store.activities.set(a.id, a);
    u.activities.push(a);
    bank.schedule(bank.settleMs, () => settleActivity(bank, a));
    return ok({ activity_id: a.id, status: a.status });
  };

  // ---------------------------------------------------------------- activity
  const listActivity = (ctx: Ctx): Reply => {
    const q = new URLSearchParams(ctx.rawQuery);
    const page = q.has('page_number') ? f.integer({ page_number: q.get('page_number') }, 'page_number')! : 1;
    const size = q.has('page_size') ? f.integer({ page_size: q.get('page_size') }, 'page_size')! : 20;
    if (page < 1) throw E.invalid('page_number');
    if (size < 1 || size > MAX_PAGE_SIZE) throw E.invalid('page_size');
    const all = [...user(ctx).activities].reverse();
    return ok({ data: all.slice((page - 1) * size, page * size).map(view.activity), page_number: page, page_size: size, total: all.length });
  };

  const getActivity = (ctx: Ctx): Reply => {
    const a = store.activities.get(ctx.params.activity_id);
    if (!a || a.user_id !== user(ctx).user_id) throw E.notFound('activity_id');
    return ok(view.activity(a));
  };

  const statement = (ctx: Ctx): Reply => {
    const u = user(ctx);
    const b = ctx.body;
    const start = f.integer(b, 'start')!;
    const end = f.integer(b, 'end')!;
    if (end < start) throw E.invalid('end');
    const ua = bank.aliasPair(b, 'user_address', 'owner', true);
    if (ua !== undefined && (typeof ua !== 'string' || ua.toLowerCase() !== u.user_address.toLowerCase())) throw E.invalid('user_address');
    const wa = bank.aliasPair(b, 'wallet_address', 'account_address', true);
    let w = store.primaryWallet(u) ?? u.wallets[0];
    if (wa !== undefined) {
      const hit = typeof wa === 'string' ? u.wallets.find((x) => x.wallet_address.toLowerCase() === wa.toLowerCase()) : undefined;
      if (!hit) throw E.invalid('wallet_address');
      w = hit;
    }
    const o: Record<string, unknown> = { start, end };
    bank.alias(o, 'user_address', 'owner', u.user_address);
    bank.alias(o, 'wallet_address', 'account_address', w?.wallet_address ?? null);
    o.data = u.activities.filter((a) => a.created_at >= start && a.created_at <= end).map(view.activity);
    return ok(o);
  };

  // ---------------------------------------------------------------- withdrawals, fx
  const listWithdrawals = (ctx: Ctx): Reply => ok(user(ctx).withdrawals.filter((w) => w.status === 'Requested').map((w) => view.withdrawal(bank, w)));

  const estimateFx = (ctx: Ctx): Reply => {
    const b = ctx.body;
    const dest = f.value(bank.aliasPair(b, 'destination_address', 'deposit_address', true), 'destination_address', 128);
    const amount = f.amount(b, 'amount', false) ?? '100.00';
    const from = f.optString(b, 'from_currency', 8) ?? 'USDC';
    const to = f.optString(b, 'to_currency', 8) ?? 'EUR';
    const o: Record<string, unknown> = { estimation_id: randomUUID() };
    bank.alias(o, 'destination_address', 'deposit_address', dest);
    Object.assign(o, { from_currency: from, to_currency: to, amount, rate: '0.9200', estimated_amount: (Number(amount) * 0.92).toFixed(2), fee: '0.00' });
    return ok(o);
  };

  // ---------------------------------------------------------------- bank accounts and SEPA (section 3)
  const wrongPath = () => {
    if (bank.fault('sepa.wrong-path-500')) return E.internal();
    return E.rule('ERR-SEPA-WRONG-PATH');
  };

  const chain = (b: Record<string, unknown>): string => {
    const field = bank.fault('sepa.chain-field-named-chain') ? 'chain' : 'chain_id';
    const v = b.chain;
    if (v === undefined || v === null || v === '') throw E.missing(field);
    if (typeof v !== 'string' || !NUMERIC.test(v)) throw E.rule('ERR-CHAIN-NOT-NUMERIC', [field]);
    return v;
  };

  const createBankAccount = (ctx: Ctx): Reply => {
    const u = user(ctx);
    const type = f.oneOf(ctx.body, 'account_type', BANK_ACCOUNT_TYPES);
    if (type !== 'Sepa') {
      let id = u.bankDetails.get(type);
      if (!id) {
        id = randomUUID();
        u.bankDetails.set(type, id);
      }
      return ok({ details_id: id });
    }
    const s = u.sepa.status;
    if (s === 'ActivationNotStarted') {
      u.sepa.details_id ??= randomUUID();
      u.sepa.status = 'InProgress';
    } else if (s === 'InProgress' || s === 'Active') {
      u.sepa.details_id ??= randomUUID();
    } else if (bank.fault('sepa.allow-wrong-path')) {
      u.sepa.details_id ??= randomUUID();
      u.sepa.status = 'InProgress';
    } else {
      throw wrongPath();
    }
    return ok({ details_id: u.sepa.details_id });
  };

  const walletLinkGuard = (u: User) => {
    if (u.sepa.status !== 'ExternalProviderVerificationRequired' && !bank.fault('sepa.allow-wrong-path')) throw wrongPath();
    const w = store.primaryWallet(u);
    if (!w && !bank.fault('sepa.no-primary-wallet-check')) throw E.notFound('wallet_address');
    return w ?? u.wallets[0];
  };

  const initBankAccount = (ctx: Ctx): Reply => {
    const u = user(ctx);
    chain(ctx.body);
    const w = walletLinkGuard(u);
    u.sepa.challenge = `Link wallet ${w?.wallet_address ?? ''} to SEPA account of ${u.user_id}: ${randomBytes(16).toString('hex')}`;
    return ok({ challenge: u.sepa.challenge, wallet_address: w?.wallet_address ?? null });
  };

  const completeBankAccount = (ctx: Ctx): Reply => {
    const u = user(ctx);
    chain(ctx.body);
    const signed = f.string(ctx.body, 'signed_challenge', 4096);
    const w = walletLinkGuard(u);
    // The Primary Smart Wallet must have signed the challenge init issued (not shown by the spec; see signing.ts).
    if (!u.sepa.challenge || !w || !walletVerify(w.wallet_address, u.sepa.challenge, signed)) throw E.invalid('signed_challenge');
    u.sepa.details_id ??= randomUUID();
    u.sepa.status = 'InProgress';
    u.sepa.challenge = undefined;
    return ok({ details_id: u.sepa.details_id });
  };

  const validateRetail = (ctx: Ctx): Reply => ok(view.userIds(bank, user(ctx)));

  const r = (method: string, path: string, operationId: string, auth: Route['auth'], handler: Route['handler'], extra: Partial<Route> = {}): Route => ({
    method,
    path,
    operationId,
    auth,
    handler,
    ...extra,
  });
  const ops = DEFAULT_OPERATION_PATHS;
  return [
    r('POST', '/api/v1/token', 'createToken', 'none', createToken, { body: 'json-or-form' }),
    r('POST', '/api/v1/user/authorize', 'authorizeUser', 'authorize', authorize, { body: 'none' }),
    r('POST', '/api/v1/user/retail', 'registerRetailUser', 'idp', registerRetail),
    r('POST', '/api/v1/user', 'createUserV1', 's2s-chain', createUser),
    r('POST', '/api/v2/user', 'createUserV2', 's2s', createUser),
    r('GET', '/api/v1/user', 'getUserV1', 'user', (ctx) => ok(view.userV1(bank, user(ctx)))),
    r('GET', '/api/v2/user', 'getUserV2', 'user', (ctx) => ok(view.userV2(bank, user(ctx)))),
    r('POST', '/api/v1/user/retail/validate', 'validateRetailUser', 'user', validateRetail, { body: 'none' }),
    r('GET', '/api/v1/config', 'getConfig', 's2s', getConfig),
    r('GET', '/api/v1/validation/rules', 'getValidationRules', 's2s', getValidationRules),
    r('GET', '/api/v1/wallet', 'getWallet', 'user', getWallet),
    r('GET', '/api/v1/wallets', 'listWallets', 'user', listWallets),
    r('POST', '/api/v1/accounts', 'createXrplAccount', 'user', createXrplAccount),
    r('GET', '/api/v1/cards', 'listCards', 'user', listCards),
    r('POST', '/api/v1/cards/virtual', 'createVirtualCard', 'user', createVirtualCard),
    r('GET', '/api/v1/cards/3ds/requests', 'list3dsRequests', 'user', list3ds),
    r(ops.approve3ds.method, ops.approve3ds.path, 'approve3ds', 'user', decide3ds('Approved'), { never401: true, body: 'none' }),
    r(ops.decline3ds.method, ops.decline3ds.path, 'decline3ds', 'user', decide3ds('Declined'), { never401: true, body: 'none' }),
    r(ops.activateCard.method, ops.activateCard.path, 'activateCard', 'user', cardAction('activate'), { body: 'none' }),
    r(ops.blockCard.method, ops.blockCard.path, 'blockCard', 'user', cardAction('block'), { body: 'none' }),
    r(ops.unblockCard.method, ops.unblockCard.path, 'unblockCard', 'user', cardAction('unblock'), { body: 'none' }),
    r(ops.closeCard.method, ops.closeCard.path, 'closeCard', 'user', cardAction('close'), { body: 'none' }),
    r('POST', '/api/v1/cards/transfer/estimate', 'estimateCardTransfer', 'user', estimateTransfer),
    r('POST', '/api/v1/cards/transfer', 'executeCardTransfer', 'user', executeTransfer),
    r('POST', '/api/v2/recipients', 'createRecipientV2', 'user', createRecipient),
    r('GET', '/api/v1/withdrawal/requests', 'listWithdrawalRequests', 'user', listWithdrawals),
    r('POST', '/api/v1/fx/estimate', 'estimateFx', 'user', estimateFx),
    r('POST', '/api/v1/activity/statement/full', 'getFullStatement', 'user', statement),
    r('POST', '/api/v1/bank/accounts', 'createBankAccount', 'user', createBankAccount),
    r('POST', '/api/v1/bank/accounts/init', 'initBankAccount', 'user', initBankAccount),
    r('POST', '/api/v1/bank/accounts/complete', 'completeBankAccount', 'user', completeBankAccount),
    r(ops.listActivity.method, ops.listActivity.path, 'listActivity', 'user', listActivity),
    r(ops.getActivity.method, ops.getActivity.path, 'getActivity', 'user', getActivity),
  ];
}

/** Settles a card transfer once: Pending -> Completed, then the activity webhook (section 6 rule 1). */
export function settleActivity(bank: Bank, a: Activity): void {
  if (a.status !== 'Pending') return;
  a.status = 'Completed';
  a.completed_at = bank.nowSec();
  if (bank.fault('webhooks.no-activity')) return;
  const u = bank.store.users.get(a.user_id);
  bank.webhooks.emit('/v2/webhooks/activities', {
    ...view.activity(a),
    user_id: a.user_id,
    user_address: u?.user_address,
  });
}

export { SEPA_STATUSES };

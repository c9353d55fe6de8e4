// Users (section 4): creation (v1, v2), retail registration and validation, user reads, config reads.

import { idpUser, issueUserToken } from '../auth/index.ts';
import { Fields } from '../fields.ts';
import type { Ctx, Reply } from '../http.ts';
import type { RefState } from '../state/index.ts';
import { USDC_ADDRESS } from '../state/store.ts';
import * as view from '../views.ts';
import { enumOf, ok, userOf } from './common.ts';
import type { User } from '../state/store.ts';
import { randomBytes } from 'node:crypto';

/**
 * Paths of the wallets and balances webhooks (section 6: paths not shown; the published profile
 * gives them as webhook_paths.wallets / balances). The reference emits them when a user's Smart
 * Wallet is provisioned (when is not shown either). Section 9.5: their payloads keep wallet_address.
 */
export const WALLETS_WEBHOOK_PATH = '/v2/webhooks/wallets';
export const BALANCES_WEBHOOK_PATH = '/v2/webhooks/balances';

function emitWalletWebhooks(st: RefState, u: User): void {
  const renamed = st.fault('webhooks.wallets-renamed');
  const addr = (w: { wallet_address: string }) => (renamed ? { account_address: w.wallet_address } : { wallet_address: w.wallet_address });
  for (const w of u.wallets) {
    st.webhooks.emit(WALLETS_WEBHOOK_PATH, { ...addr(w), user_id: u.user_id, chain_type: w.chain_type, role: w.role });
    st.webhooks.emit(BALANCES_WEBHOOK_PATH, { ...addr(w), user_id: u.user_id, balances: w.balances.map((b) => ({ ...b })) });
  }
}

/** Path of the user webhook: /v2/webhooks/user, or (fault) the legacy path it replaces (rule facts, section 6). */
export function userWebhookPath(st: RefState): string {
  if (!st.fault('webhooks.user-legacy-path')) return st.model.webhookPath('user');
  return String((st.model.rule('EVENT-USER-WEBHOOK-PATH') as { facts?: Record<string, unknown> }).facts?.legacy_path);
}

const COUNTRY = /^[A-Za-z]{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const NUMERIC = /^[0-9]+$/;

/** POST /api/v1/user and /api/v2/user: email, country, user_address (or its deprecated alias). */
export function createUser(ctx: Ctx, st: RefState): Reply {
  const E = st.errors;
  const f = new Fields(E);
  const b = ctx.body;
  const companyId = ctx.caller!.company_id;
  const email = f.string(b, 'email', 254);
  if (!EMAIL.test(email)) throw E.invalid('email');
  const country = f.string(b, 'country', 2);
  if (!COUNTRY.test(country)) throw E.invalid('country');
  const rule = ctx.route.operationId === 'createUserV1' ? 'ALIAS-USER-CREATE-WALLET-ADDRESS-V1' : 'ALIAS-USER-CREATE-WALLET-ADDRESS-V2';
  const field = st.aliases.preferred(rule);
  const address = f.value(st.aliases.read(b, rule, true), field, 64);
  if (!EVM_ADDRESS.test(address)) throw E.invalid(field);
  const company = st.store.company(companyId);
  if (company.usersByEmail.has(email.toLowerCase())) throw E.invalid('email');
  if (company.usersByAddress.has(address.toLowerCase())) throw E.invalid(field);
  const u = st.addUser(companyId, email, country.toUpperCase(), address);
  if (!st.fault('webhooks.user-on-trigger-only')) st.webhooks.emit(userWebhookPath(st), view.userWebhook(st, u));
  emitWalletWebhooks(st, u);
  // The creation answer carries the user id under both names of the user-read pair (a reference choice).
  const o: Record<string, unknown> = {};
  st.aliases.write(o, 'ALIAS-USER-READ-ID', u.user_id);
  return ok(o);
}

/** POST /api/v1/user/retail: email and wallet from the provider tokens; answers only the id (section 4 rule 5). */
export function registerRetail(ctx: Ctx, st: RefState): Reply {
  const caller = ctx.caller!;
  const country = new Fields(st.errors).string(ctx.body, 'country', 2);
  if (!COUNTRY.test(country)) throw st.errors.invalid('country');
  // Registering the same provider identity again returns the existing id.
  let u = idpUser(st, caller);
  if (!u) {
    // Section 5: email and wallet come from the tokens (the fault stores another address instead).
    const wallet = st.fault('idp.user-address-not-linked') ? `0x${randomBytes(20).toString('hex')}` : caller.idp!.wallet;
    u = st.addUser(caller.company_id, caller.idp!.email, country.toUpperCase(), wallet);
    u.idp_sub = caller.idp!.sub;
    if (!st.fault('webhooks.user-on-trigger-only')) st.webhooks.emit(userWebhookPath(st), view.userWebhook(st, u));
    emitWalletWebhooks(st, u);
  }
  // Fault: the registration also hands out the user token (section 4 rule 5: it returns only id; the token
  // comes from the authorize call that follows).
  if (st.fault('retail.returns-token')) return ok({ id: u.user_id, ...issueUserToken(st, u) });
  return ok({ id: u.user_id });
}

export const getUserV1 = (ctx: Ctx, st: RefState): Reply => ({ status: 200, json: view.userV1Json(st, userOf(ctx)) });
export const getUserV2 = (ctx: Ctx, st: RefState): Reply => ok(view.userV2(st, userOf(ctx)));
export const validateRetail = (ctx: Ctx, st: RefState): Reply => ok(view.userIds(st, userOf(ctx)));

/** Application configuration (payload not shown: the reference's own shape, chain from the model). */
export function getConfig(ctx: Ctx, st: RefState): Reply {
  const chain = st.model.auth.sandbox_chain_id;
  return ok({
    company_id: ctx.caller!.company_id,
    default_chain_id: chain,
    chains: [{ chain_id: chain, name: 'Base Sepolia', sandbox: true }],
    api_versions: ['v1', 'v2'],
    bank_account_types: enumOf(st, 'createBankAccount', 'account_type'),
    card_formats: ['virtual', 'plastic'],
    tokens: [{ token_symbol: 'USDC', token_address: USDC_ADDRESS, decimals: 6 }],
  });
}

/** Validation rules (payload not shown): the checks this reference applies. */
export function getValidationRules(): Reply {
  return ok({
    rules: [
      { field: 'email', type: 'string', max_length: 254, pattern: EMAIL.source },
      { field: 'country', type: 'string', pattern: COUNTRY.source },
      { field: 'user_address', type: 'string', pattern: EVM_ADDRESS.source },
      { field: 'card_name', type: 'string', min_length: 1, max_length: 64 },
      { field: 'chain', type: 'string', pattern: NUMERIC.source },
    ],
  });
}

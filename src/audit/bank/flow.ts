// A realistic partner flow against the audit's profile: S2S token, create a user, a user token, cards,
// Push to Card (tokenize at pci_url, recipient, estimate, execute), SEPA activation on both paths, then
// steady traffic until the duration ends so token refresh is observed. Paths, header names and alias
// names come from the model (a partner's client would hard-code them; this sample follows spec/).

import { randomBytes } from 'node:crypto';
import type { AuditProfile } from '../index.ts';
import { controlOperations } from '../../control/index.ts';
import { loadModel, type Model } from '../../model/index.ts';
import type { OperationId, SepaAccountState } from '../../model/index.ts';
import { BEND, type ClientMode, type OutgoingCall } from './modes.ts';
import { Http, pick, type Answer } from './http.ts';
import { TokenManager } from './tokens.ts';

export interface FlowOptions {
  mode?: ClientMode;
  /**
   * Keep calling until this long after the first S2S token arrived (ms): the token call may first meet
   * a burst of 429s whose backoff takes seconds. The flow itself takes a few seconds.
   */
  durationMs?: number;
}

export interface FlowResult {
  calls: number;
  /** Steps that did not get the answer they needed (a faulty client loses some). */
  problems: string[];
}

const randomEoa = () => `0x${randomBytes(20).toString('hex')}`;
const fillPath = (p: string, params: Record<string, string>) => p.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(params[k] ?? ''));
const casing = (h: string, mode: ClientMode) => (mode === 'header-case' ? (h.length % 2 ? h.toUpperCase() : h.toLowerCase()) : h);

export async function runPartnerFlow(profile: AuditProfile, opts: FlowOptions = {}): Promise<FlowResult> {
  const mode = opts.mode ?? 'none';
  const model: Model = await loadModel();
  const http = new Http(mode, profile.request_timeout_seconds * 1000 * (mode === 'short-timeout' ? 0.2 : 1));
  const problems: string[] = [];
  const chainHeader = casing(model.auth.chain_header, mode);
  const walletHeader = model.clientRule('CLIENT-WALLET-HEADER-EOA').facts.header;
  const emailHeader = model.auth.identity_headers.find((h) => h !== walletHeader && /mail/i.test(h)) ?? model.auth.identity_headers[1];
  const extra = mode === 'extra-fields' ? { client_reference: `ref-${randomBytes(4).toString('hex')}` } : {};
  const url = (id: OperationId, params: Record<string, string> = {}) => {
    const op = model.operation(id);
    return `${op.server === 'pci' ? profile.pci_url : profile.base_url}${fillPath(op.path, params)}`;
  };
  const grantType = String((model.operation('createToken').requestSchema as { properties?: Record<string, { enum?: unknown[] }> })?.properties?.grant_type?.enum?.[0]);
  const tokens = new TokenManager(http, { url: url('createToken'), grantType, clientId: profile.credentials.client_id, clientSecret: profile.credentials.client_secret, bufferMs: profile.token_refresh_buffer_seconds * 1000 * (mode === 'late-refresh' ? 0.2 : 1) }, mode, mode === 'extra-fields' ? { audience: 'partner-api' } : {});
  const chain = (): Record<string, string> => ({ [chainHeader]: profile.chain_id });
  // The faulty switch's bend (modes.ts BEND), if any, on every call to base_url.
  const bend = mode in BEND ? BEND[mode as keyof typeof BEND] : undefined;
  const bent = (id: OperationId, headers: Record<string, string>, body: unknown): OutgoingCall => {
    const call: OutgoingCall = { op: model.operation(id), headers, ...(body !== undefined ? { body } : {}) };
    bend?.(call, model);
    return call;
  };

  /** An S2S call; `user` adds the identity header (the EOA, or what the faulty mode sends). */
  const s2s = async (id: OperationId, o: { body?: unknown; params?: Record<string, string>; wallet?: string; email?: string } = {}): Promise<Answer> => {
    const op = model.operation(id);
    const ident: Record<string, string> = {};
    if (o.wallet) ident[casing(walletHeader, mode)] = o.wallet;
    if (o.email && mode === 'two-identity-headers') ident[emailHeader] = o.email;
    const { headers, body } = bent(id, { ...chain(), ...ident }, o.body);
    const call = () => http.call({
      method: op.method, url: url(id, o.params), headers, body,
      perAttempt: async () => ({ authorization: `Bearer ${await tokens.get()}` }),
    });
    let r = await call();
    if (r.status === 401) {
      tokens.invalidate();
      r = await call();
    }
    return r;
  };
  const asUser = (userToken: string, id: OperationId, o: { body?: unknown; params?: Record<string, string> } = {}) => {
    const { op, headers, body } = bent(id, { ...chain(), authorization: `Bearer ${userToken}` }, o.body);
    return http.call({ method: op.method, url: url(id, o.params), headers, body });
  };
  const control = async (id: string, params: Record<string, string>, body?: unknown): Promise<Answer> => {
    const op = controlOperations(model).get(id);
    if (!op || !profile.control_url) return { status: 0, body: undefined };
    return http.call({ method: op.method, url: `${profile.control_url}${fillPath(op.path, params)}`, body });
  };
  const need = (what: string, r: Answer, ok = (a: Answer) => a.status >= 200 && a.status < 300) => {
    if (!ok(r)) problems.push(`${what}: HTTP ${r.status} ${JSON.stringify(r.body)?.slice(0, 160)}`);
    return ok(r);
  };

  let started = Date.now();
  try {
    await tokens.get();
    started = Date.now();
    // 1. A user, registered with the preferred name of the EOA field (deprecated alias: section 9).
    const alias = model.aliasRule('ALIAS-USER-CREATE-WALLET-ADDRESS-V1');
    const eoa = randomEoa();
    const email = `partner+${randomBytes(4).toString('hex')}@example.com`;
    const names: Record<string, string> = mode === 'deprecated-names' ? { [alias.old]: eoa }
      : mode === 'mismatching-pair' ? { [alias.new]: eoa, [alias.old]: randomEoa() }
        : mode === 'both-names' ? { [alias.new]: eoa, [alias.old]: eoa } : { [alias.new]: eoa };
    const created = await s2s('createUserV1', { body: { email, country: 'DE', ...names, ...extra } });
    need('create user', created);
    // The created user's id field is not shown (section 4): either name of the user id alias pair.
    const idAlias = model.aliasRule('ALIAS-USER-READ-ID');
    const userIdOf = (body: unknown): string => String(pick(body, idAlias.new) ?? pick(body, idAlias.old) ?? '');
    const userId = userIdOf(created.body);
    need('read user', await s2s('getUserV2', { wallet: eoa, email }));

    // 2. A user token for the client application; the Smart Wallet from the wallet list.
    const auth = await s2s('authorizeUser', { wallet: eoa, email });
    need('user token', auth);
    const userToken = String(pick(auth.body, 'access_token') ?? '');
    const wallets = await asUser(userToken, 'listWallets');
    need('wallets', wallets);
    const smart = String(pick(wallets.body, 'data', 0, 'wallet_address') ?? pick(wallets.body, 0, 'wallet_address') ?? '');
    const walletForHeader = mode === 'smart-wallet-header' && smart ? smart : eoa;

    // 3. Cards.
    need('virtual card', await asUser(userToken, 'createVirtualCard', { body: { card_name: 'Travel', ...extra } }));
    need('cards', await asUser(userToken, 'listCards'));

    // 4. Push to Card: the card goes to pci_url only; the API sees its card_token.
    const card = { ...profile.test_card, holder_name: 'Ada Lovelace' };
    if (mode === 'pan-to-base') {
      await http.call({ method: model.operation('tokenizeCard').method, url: `${profile.base_url}${model.operation('tokenizeCard').path}`, body: card });
    }
    const tok = await http.call({ method: 'POST', url: url('tokenizeCard'), body: card });
    if (need('tokenize card', tok)) {
      const rec = await asUser(userToken, 'createRecipientV2', { body: { type: 'Card', first_name: 'Ada', last_name: 'Lovelace', is_business: false, card_token: pick(tok.body, 'card_token'), ...extra } });
      // payment_details: one object or a list of them; the first is paid to.
      const detailsId = pick(rec.body, 'payment_details', 0, 'id') ?? pick(rec.body, 'payment_details', 'id');
      if (need('recipient', rec) && detailsId) {
        const est = await asUser(userToken, 'estimateCardTransfer', { body: { recipient_id: pick(rec.body, 'id'), payment_details_id: detailsId, amount: '10.00', currency: 'EUR' } });
        if (need('estimate', est)) need('execute', await asUser(userToken, 'executeCardTransfer', { body: { estimation_id: pick(est.body, 'estimation_id') } }));
      }
    }

    // 5. SEPA, explicit activation (section 3): this user on the direct path, with the S2S token.
    need('sepa account', await s2s('createBankAccount', { wallet: walletForHeader, email, body: { account_type: 'Sepa' } }));
    if (userId) await control('completeSepaActivation', { user_id: userId });

    // 6. The wallet-linking path: a second user whose status asks for provider verification.
    const eoa2 = randomEoa();
    const u2 = await s2s('createUserV1', { body: { email: `partner+${randomBytes(4).toString('hex')}@example.com`, country: 'FR', ...(mode === 'deprecated-names' ? { [alias.old]: eoa2 } : { [alias.new]: eoa2 }) } });
    const u2id = userIdOf(u2.body);
    const verify: SepaAccountState = 'ExternalProviderVerificationRequired';
    if (need('second user', u2) && (await control('setSepaCapabilityStatus', { user_id: u2id }, { status: verify })).status < 300) {
      const init = await s2s('initBankAccount', { wallet: eoa2, body: { chain: profile.chain_id } });
      if (need('init', init)) {
        const signed = await control('signChallenge', { user_id: u2id }, { challenge: pick(init.body, 'challenge') });
        need('complete', await s2s('completeBankAccount', { wallet: eoa2, body: { chain: profile.chain_id, signed_challenge: pick(signed.body, 'signed_challenge') } }));
      }
    }

    // 7. Steady traffic until the duration ends (token refresh happens here).
    const until = started + (opts.durationMs ?? 0);
    for (let i = 0; Date.now() < until && i < 500; i++) {
      await s2s('getUserV2', { wallet: walletForHeader, email });
      await asUser(userToken, 'listCards');
      await new Promise((r) => setTimeout(r, 150));
    }
  } catch (e) {
    problems.push(`flow stopped: ${(e as Error).message}`);
  } finally {
    await tokens.settle();
    await http.close();
  }
  return { calls: http.calls, problems };
}

// A partner application as integrators write one on top of an HTTP library (libraries.ts): a worker
// that does one step per tick (token, user, user token, wallets, card, card tokenization, SEPA account,
// then steady reads). A step that fails is logged and the next tick goes on, so after a 429 the
// application itself asks again on its next step when its library does not retry. What the library
// does by default (retries, Retry-After, timeouts) is the library's; this file holds only what every
// integrator writes from the API reference (paths, headers, field names) and the token policy.

import { randomBytes } from 'node:crypto';
import type { AuditProfile } from '../index.ts';
import { loadModel } from '../../model/index.ts';
import type { OperationId } from '../../model/index.ts';
import { pick } from './http.ts';

export interface Reply {
  status: number;
  body: unknown;
}

/** One HTTP library, as configured: sends a request (JSON body) and reads the JSON answer. */
export interface Transport {
  send(req: { method: string; url: string; headers: Record<string, string>; body?: unknown }): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * When the application renews its S2S token: `on-401` keeps it until the API refuses it (the common
 * first integration), `buffer` renews the profile's refresh buffer before expires_at (section 5).
 */
export type TokenPolicy = 'on-401' | 'buffer';

export interface AppResult {
  steps: number;
  /** Steps that failed (status or error), in order; a faulty library loses some. */
  problems: string[];
}

const TICK_MS = 150;
/** Ticks at most, whatever the duration: every loop bounded in count. */
const MAX_TICKS = 400;
const fill = (p: string, params: Record<string, string>) => p.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(params[k] ?? ''));

/**
 * Runs the application against an audit's profile until `durationMs` after its first S2S token (and
 * at most `limitMs` in all), then closes the transport.
 */
export async function runApp(profile: AuditProfile, transport: Transport, policy: TokenPolicy, opts: { durationMs: number; limitMs: number }): Promise<AppResult> {
  const model = await loadModel();
  const url = (id: OperationId, params: Record<string, string> = {}) => {
    const op = model.operation(id);
    return `${op.server === 'pci' ? profile.pci_url : profile.base_url}${fill(op.path, params)}`;
  };
  const walletHeader = model.clientRule('CLIENT-WALLET-HEADER-EOA').facts.header;
  const chain = { [model.auth.chain_header]: profile.chain_id };
  const bufferMs = profile.token_refresh_buffer_seconds * 1000;
  const grantType = String((model.operation('createToken').requestSchema as { properties?: Record<string, { enum?: unknown[] }> })?.properties?.grant_type?.enum?.[0]);
  const problems: string[] = [];
  let token: { value: string; expiresAtMs: number } | undefined;
  let firstTokenAt: number | undefined;

  const s2sToken = async (): Promise<string> => {
    if (token && (policy === 'on-401' || Date.now() < token.expiresAtMs - bufferMs)) return token.value;
    const r = await transport.send({ method: 'POST', url: url('createToken'), headers: {}, body: { client_id: profile.credentials.client_id, client_secret: profile.credentials.client_secret, grant_type: grantType } });
    const value = pick(r.body, 'access_token');
    if (r.status !== 200 || typeof value !== 'string') throw new Error(`token: HTTP ${r.status}`);
    token = { value, expiresAtMs: Number(pick(r.body, 'expires_at')) * 1000 };
    firstTokenAt ??= Date.now();
    return value;
  };
  const s2s = async (id: OperationId, o: { body?: unknown; wallet?: string } = {}): Promise<Reply> => {
    const op = model.operation(id);
    const send = async () => transport.send({ method: op.method, url: url(id), headers: { ...chain, ...(o.wallet ? { [walletHeader]: o.wallet } : {}), authorization: `Bearer ${await s2sToken()}` }, body: o.body });
    const r = await send();
    if (r.status !== 401) return r;
    token = undefined;
    return send();
  };
  const asUser = (userToken: string, id: OperationId, body?: unknown) => transport.send({ method: model.operation(id).method, url: url(id), headers: { ...chain, authorization: `Bearer ${userToken}` }, body });

  const alias = model.aliasRule('ALIAS-USER-CREATE-WALLET-ADDRESS-V1');
  const eoa = `0x${randomBytes(20).toString('hex')}`;
  const state: { user?: boolean; userToken?: string; wallets?: boolean; card?: boolean; tokenized?: boolean; sepa?: boolean } = {};
  const ok = (what: string, r: Reply) => {
    if (r.status >= 200 && r.status < 300) return true;
    problems.push(`${what}: HTTP ${r.status}`);
    return false;
  };
  /** The next step: the first one not done yet, then steady reads. */
  const step = async (): Promise<void> => {
    if (!state.user) {
      state.user = ok('create user', await s2s('createUserV1', { body: { email: `app+${randomBytes(4).toString('hex')}@example.com`, country: 'DE', [alias.new]: eoa } }));
    } else if (!state.userToken) {
      const r = await s2s('authorizeUser', { wallet: eoa });
      if (ok('user token', r)) state.userToken = String(pick(r.body, 'access_token') ?? '');
    } else if (!state.wallets) {
      state.wallets = ok('wallets', await asUser(state.userToken, 'listWallets'));
    } else if (!state.card) {
      state.card = ok('virtual card', await asUser(state.userToken, 'createVirtualCard', { card_name: 'Travel' }));
    } else if (!state.tokenized) {
      state.tokenized = ok('tokenize card', await transport.send({ method: model.operation('tokenizeCard').method, url: url('tokenizeCard'), headers: {}, body: { ...profile.test_card, holder_name: 'Ada Lovelace' } }));
    } else if (!state.sepa) {
      state.sepa = ok('sepa account', await s2s('createBankAccount', { wallet: eoa, body: { account_type: 'Sepa' } }));
    } else {
      ok('read user', await s2s('getUserV2', { wallet: eoa }));
      ok('cards', await asUser(state.userToken, 'listCards'));
    }
  };

  const started = Date.now();
  let steps = 0;
  try {
    for (; steps < MAX_TICKS; steps++) {
      const now = Date.now();
      if (now - started > opts.limitMs || (firstTokenAt !== undefined && now - firstTokenAt > opts.durationMs)) break;
      try {
        await step();
      } catch (e) {
        problems.push((e as Error).message.split('\n')[0]);
      }
      await new Promise((r) => setTimeout(r, TICK_MS));
    }
  } finally {
    await transport.close();
  }
  return { steps, problems };
}

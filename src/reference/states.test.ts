import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { startWebhookReceiver, type TestWebhookReceiver } from '../webhooks/index.ts';
import { errorBody, items, startKit, type Kit } from './testkit.ts';
import { field } from '../checks/body.ts';

/**
 * The waiter resolves as soon as the reference's delivery lands (milliseconds on loopback); only a
 * missing webhook waits this out, so it is generous: a 2 s wait failed a busy machine, not the server.
 */
const WEBHOOK_WAIT_MS = 30_000;

let kit: Kit;
let model: Model;
let hooks: TestWebhookReceiver;

beforeAll(async () => {
  model = await loadModel();
  kit = await startKit();
  hooks = await startWebhookReceiver();
  expect((await kit.call('PUT', '/webhooks', { server: 'control', body: { base_url: hooks.baseUrl } })).status).toBe(204);
});
afterAll(async () => {
  await kit.close();
  await hooks.close();
});

const sepaStatus = async (h: Record<string, string>) =>
  items((await kit.call('GET', '/api/v2/user', { headers: h })).obj.capabilities).find((c) => c.type === 'SepaAccount')?.status;
const setSepa = (id: string, status: string) => kit.call('PUT', `/users/${id}/capabilities/SepaAccount`, { server: 'control', body: { status } });

describe('SEPA activation', () => {
  it('direct path: ActivationNotStarted -> InProgress -> (webhook) Active; Active returns the same details_id', async () => {
    const u = await kit.newUser();
    const r = await kit.call('POST', '/api/v1/bank/accounts', { headers: u.headers, body: { account_type: 'Sepa' } });
    expect(r.status, r.text).toBe(200);
    expect(r.obj.details_id).toBeTypeOf('string');
    expect(await sepaStatus(u.headers)).toBe('InProgress');
    // The wallet-linking path does not match InProgress.
    const wrong = await kit.call('POST', '/api/v1/bank/accounts/init', { headers: u.headers, body: { chain: '84532' } });
    expect(wrong.status).toBe(model.errorRule('ERR-SEPA-WRONG-PATH').status);
    const wh = hooks.waitFor(kit.p.webhook_paths!.bank_account, (b) => field(b, 'user_id') === u.id, WEBHOOK_WAIT_MS);
    expect((await kit.call('POST', `/users/${u.id}/sepa/complete`, { server: 'control', body: {} })).status).toBe(204);
    expect((await wh)?.body).toMatchObject({ user_id: u.id, details_id: r.obj.details_id, account_type: 'Sepa' });
    expect(await sepaStatus(u.headers)).toBe('Active');
    const again = await kit.call('POST', '/api/v1/bank/accounts', { headers: u.headers, body: { account_type: 'Sepa' } });
    expect(again.obj.details_id).toBe(r.obj.details_id);
  });

  it('wallet-linking path: init returns the Primary Smart Wallet; complete moves to InProgress', async () => {
    const u = await kit.newUser();
    expect((await setSepa(u.id, 'ExternalProviderVerificationRequired')).status).toBe(204);
    const direct = await kit.call('POST', '/api/v1/bank/accounts', { headers: u.headers, body: { account_type: 'Sepa' } });
    expect(direct.status).toBe(400);
    expect(errorBody(direct).code).toBe(400);
    const wallet = await kit.call('GET', '/api/v1/wallet', { headers: u.headers });
    const init = await kit.call('POST', '/api/v1/bank/accounts/init', { headers: u.headers, body: { chain: '84532' } });
    expect(init.status, init.text).toBe(200);
    expect(init.obj.challenge).toBeTypeOf('string');
    expect(init.obj.wallet_address).toBe(wallet.obj.wallet_address);
    const bad = await kit.call('POST', '/api/v1/bank/accounts/complete', { headers: u.headers, body: { chain: 'base', signed_challenge: '0xsig' } });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).details).toContain('chain_id');
    expect(errorBody(bad).details).not.toContain('chain');
    const noSig = await kit.call('POST', '/api/v1/bank/accounts/complete', { headers: u.headers, body: { chain: '84532' } });
    expect(noSig.status).toBe(400);
    const wrongSig = await kit.call('POST', '/api/v1/bank/accounts/complete', { headers: u.headers, body: { chain: '84532', signed_challenge: '0xsig' } });
    expect(wrongSig.status).toBe(400);
    expect(errorBody(wrongSig).details).toContain('signed_challenge');
    const signed = await kit.call('POST', `/users/${u.id}/sign`, { server: 'control', body: { challenge: init.obj.challenge } });
    expect(signed.status, signed.text).toBe(200);
    expect(signed.obj.signed_challenge).toMatch(/^0x[0-9a-f]{64}$/);
    const otherChallenge = await kit.call('POST', `/users/${u.id}/sign`, { server: 'control', body: { challenge: `${init.obj.challenge}x` } });
    const wrongChallenge = await kit.call('POST', '/api/v1/bank/accounts/complete', { headers: u.headers, body: { chain: '84532', signed_challenge: otherChallenge.obj.signed_challenge } });
    expect(wrongChallenge.status).toBe(400);
    expect(await sepaStatus(u.headers)).toBe('ExternalProviderVerificationRequired');
    const done = await kit.call('POST', '/api/v1/bank/accounts/complete', { headers: u.headers, body: { chain: '84532', signed_challenge: signed.obj.signed_challenge } });
    expect(done.status, done.text).toBe(200);
    expect(done.obj.details_id).toBeTypeOf('string');
    expect(await sepaStatus(u.headers)).toBe('InProgress');
  });

  it('a user without a Primary Smart Wallet cannot finish the wallet-linking path', async () => {
    const u = await kit.newUser();
    await setSepa(u.id, 'ExternalProviderVerificationRequired');
    // A challenge issued and signed while the Primary wallet was there, so the missing wallet is the only fault.
    const first = await kit.call('POST', '/api/v1/bank/accounts/init', { headers: u.headers, body: { chain: '84532' } });
    const signed = await kit.call('POST', `/users/${u.id}/sign`, { server: 'control', body: { challenge: first.obj.challenge } });
    expect(signed.status).toBe(200);
    expect((await kit.call('PUT', `/users/${u.id}/primary-wallet`, { server: 'control', body: { present: false } })).status).toBe(204);
    expect((await kit.call('POST', `/users/${u.id}/sign`, { server: 'control', body: { challenge: 'x' } })).status).toBe(400);
    const init = await kit.call('POST', '/api/v1/bank/accounts/init', { headers: u.headers, body: { chain: '84532' } });
    expect(init.status).toBe(400);
    const complete = await kit.call('POST', '/api/v1/bank/accounts/complete', { headers: u.headers, body: { chain: '84532', signed_challenge: signed.obj.signed_challenge } });
    expect(complete.status).toBe(400);
    expect(await sepaStatus(u.headers)).toBe('ExternalProviderVerificationRequired');
  });

  it('init with a non-numeric chain names chain_id', async () => {
    const u = await kit.newUser();
    await setSepa(u.id, 'ExternalProviderVerificationRequired');
    const r = await kit.call('POST', '/api/v1/bank/accounts/init', { headers: u.headers, body: { chain: 'eth' } });
    expect(r.status).toBe(400);
    expect(errorBody(r).details).toEqual(['chain_id']);
  });

  it('other account types return a details_id', async () => {
    const u = await kit.newUser();
    for (const account_type of ['Ach', 'FasterPayment', 'Spei']) {
      const r = await kit.call('POST', '/api/v1/bank/accounts', { headers: u.headers, body: { account_type } });
      expect(r.status).toBe(200);
      expect(r.obj.details_id).toBeTypeOf('string');
    }
    expect((await kit.call('POST', '/api/v1/bank/accounts', { headers: u.headers, body: { account_type: 'Swift' } })).status).toBe(400);
  });
});

describe('3DS challenges', () => {
  const approve = (h: Record<string, string>, id: unknown) => kit.call('POST', `/api/v1/cards/3ds/requests/${id}/approve`, { headers: h });
  const decline = (h: Record<string, string>, id: unknown) => kit.call('POST', `/api/v1/cards/3ds/requests/${id}/decline`, { headers: h });
  const expectNotFound = (r: { status: number; json: any; text: string }) => {
    expect(r.status, r.text).toBe(400);
    expect(errorBody(r as any).reason).toBe('ErrorNotFound');
  };

  it('lists pending challenges with user_address and owner, emits the 3DS webhook; no replay', async () => {
    const u = await kit.newUser();
    const wh = hooks.waitFor('/v2/webhooks/3ds', (b) => field(b, 'user_id') === u.id, WEBHOOK_WAIT_MS);
    const c = await kit.call('POST', `/users/${u.id}/3ds`, { server: 'control', body: { amount: '12.50' } });
    expect(c.status).toBe(201);
    const body = (await wh)?.body;
    expect(body).toMatchObject({ transaction_id: c.obj.transaction_id, user_address: u.address, owner: u.address });
    const list = await kit.call('GET', '/api/v1/cards/3ds/requests', { headers: u.headers });
    expect(list.json).toHaveLength(1);
    expect(items(list.json)[0]).toMatchObject({ transaction_id: c.obj.transaction_id, user_address: u.address, owner: u.address, amount: '12.50' });
    expect(Number(items(list.json)[0].expires_at) - Number(items(list.json)[0].created_at)).toBe(300);
    expect((await approve(u.headers, c.obj.transaction_id)).status).toBe(200);
    expectNotFound(await approve(u.headers, c.obj.transaction_id));
    expectNotFound(await decline(u.headers, c.obj.transaction_id));
    expect((await kit.call('GET', '/api/v1/cards/3ds/requests', { headers: u.headers })).json).toEqual([]);
  });

  it('unknown and other-user transactions: the same 400 ErrorNotFound; token failures never 401', async () => {
    const u = await kit.newUser();
    const other = await kit.newUser();
    const c = await kit.call('POST', `/users/${u.id}/3ds`, { server: 'control', body: {} });
    expectNotFound(await approve(other.headers, c.obj.transaction_id));
    expectNotFound(await approve(u.headers, '00000000-0000-4000-8000-000000000000'));
    const bad = { ...u.headers, authorization: 'Bearer a.b.c' };
    expectNotFound(await approve(bad, c.obj.transaction_id));
    expectNotFound(await decline(bad, c.obj.transaction_id));
    expect((await decline(u.headers, c.obj.transaction_id)).obj.status).toBe('Declined');
  });

  it('expires 300 s after creation by the server clock', async () => {
    const k = await startKit();
    try {
      const u = await k.newUser();
      const a = await k.call('POST', `/users/${u.id}/3ds`, { server: 'control', body: {} });
      const b = await k.call('POST', `/users/${u.id}/3ds`, { server: 'control', body: {} });
      const adv = await k.call('POST', '/clock/advance', { server: 'control', body: { seconds: 290 } });
      expect(adv.status).toBe(200);
      expect(adv.obj.now).toBeTypeOf('number');
      expect((await k.call('POST', `/api/v1/cards/3ds/requests/${a.obj.transaction_id}/approve`, { headers: u.headers })).status).toBe(200);
      // 290 s leaves room for real seconds passing on a loaded machine; 290 + 11 is past the 300 s window.
      await k.call('POST', '/clock/advance', { server: 'control', body: { seconds: 11 } });
      const r = await k.call('POST', `/api/v1/cards/3ds/requests/${b.obj.transaction_id}/approve`, { headers: u.headers });
      expect(r.status).toBe(400);
      expect(errorBody(r).reason).toBe('ErrorNotFound');
      expect((await k.call('GET', '/api/v1/cards/3ds/requests', { headers: u.headers })).json).toEqual([]);
    } finally {
      await k.close();
    }
  });

  it('concurrent decisions: exactly one wins', async () => {
    const u = await kit.newUser();
    for (let round = 0; round < 5; round++) {
      const c = await kit.call('POST', `/users/${u.id}/3ds`, { server: 'control', body: {} });
      const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? approve : decline)(u.headers, c.obj.transaction_id)));
      expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
      expect(rs.filter((r) => r.status === 400)).toHaveLength(19);
    }
  });

  it('the lost-update fault lets several decisions win (mutant hook works)', async () => {
    const k = await startKit({ faults: new Set(['3ds.lost-update']) });
    try {
      const u = await k.newUser();
      const c = await k.call('POST', `/users/${u.id}/3ds`, { server: 'control', body: {} });
      const rs = await Promise.all(Array.from({ length: 10 }, () => k.call('POST', `/api/v1/cards/3ds/requests/${c.obj.transaction_id}/approve`, { headers: u.headers })));
      expect(rs.filter((r) => r.status === 200).length).toBeGreaterThan(1);
    } finally {
      await k.close();
    }
  });
});

describe('cards', () => {
  it('creates, lists and acts; close is terminal', async () => {
    const u = await kit.newUser();
    expect((await kit.call('POST', '/api/v1/cards/virtual', { headers: u.headers, body: {} })).status).toBe(400);
    const c = await kit.call('POST', '/api/v1/cards/virtual', { headers: u.headers, body: { card_name: 'Travel' } });
    expect(c.status).toBe(200);
    expect(c.json).toMatchObject({ status: 'Active', card_data: { card_name: 'Travel', format: 'virtual' } });
    const list = await kit.call('GET', '/api/v1/cards', { headers: u.headers });
    expect(items(list.obj.data).map((x) => x.id)).toEqual([c.obj.id]);
    const act = (a: string) => kit.call('POST', `/api/v1/cards/${c.obj.id}/${a}`, { headers: u.headers });
    expect((await act('block')).obj.status).toBe('Blocked');
    expect((await act('unblock')).obj.status).toBe('Active');
    expect((await act('activate')).obj.status).toBe('Active');
    expect((await act('close')).obj.status).toBe('Closed');
    for (const a of ['activate', 'block', 'unblock', 'close']) expect((await act(a)).status).toBe(400);
    const other = await kit.newUser();
    const r = await kit.call('POST', `/api/v1/cards/${c.obj.id}/block`, { headers: other.headers });
    expect(r.status).toBe(400);
    expect(errorBody(r).reason).toBe('ErrorNotFound');
  });
});

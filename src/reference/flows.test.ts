import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type TestWebhookReceiver } from '../webhooks/index.ts';
import { errorBody, items, randomEoa, startKit, type Kit } from './testkit.ts';
import { field } from '../checks/body.ts';

/**
 * The waiter resolves as soon as the reference's delivery lands (milliseconds on loopback); only a
 * missing webhook waits this out, so it is generous: a 2 s wait failed a busy machine, not the server.
 */
const WEBHOOK_WAIT_MS = 30_000;

let kit: Kit;
let hooks: TestWebhookReceiver;

beforeAll(async () => {
  kit = await startKit();
  hooks = await startWebhookReceiver();
  await kit.call('PUT', '/webhooks', { server: 'control', body: { base_url: hooks.baseUrl } });
});
afterAll(async () => {
  await kit.close();
  await hooks.close();
});

const tokenize = (body: Record<string, unknown>) => kit.call('POST', '/b2b/cards/oct', { server: 'pci', body });
const CARD = { card_number: '4111111111111111', expiry_month: 12, expiry_year: new Date().getUTCFullYear() + 2, cvv: '123', holder_name: 'Ada Lovelace' };

describe('users', () => {
  it('emits the user webhook with aliases on creation', async () => {
    const addr = randomEoa();
    const wh = hooks.waitFor('/v2/webhooks/user', (b) => field(b, 'user_address') === addr, WEBHOOK_WAIT_MS);
    const h = await kit.s2s();
    const r = await kit.call('POST', '/api/v1/user', { headers: h, body: { email: `w-${Date.now()}@example.com`, country: 'ES', wallet_address: addr } });
    expect(r.status, r.text).toBe(200);
    const body = (await wh)?.body;
    expect(body).toMatchObject({ user_id: r.obj.user_id, id: r.obj.user_id, user_address: addr, owner: addr, country: 'ES' });
  });

  it('accepts matching alias pairs and rejects mismatching ones naming the field', async () => {
    const h = await kit.s2s();
    const a = randomEoa();
    const same = await kit.call('POST', '/api/v1/user', { headers: h, body: { email: `s-${Date.now()}@example.com`, country: 'DE', user_address: a, wallet_address: a.toUpperCase().replace('0X', '0x') } });
    expect(same.status, same.text).toBe(200);
    const diff = await kit.call('POST', '/api/v1/user', { headers: h, body: { email: `d-${Date.now()}@example.com`, country: 'DE', user_address: randomEoa(), wallet_address: randomEoa() } });
    expect(diff.status).toBe(400);
    const b = errorBody(diff);
    expect(b.category).toBe('CategoryValidationFailure');
    expect(b.details).toContain('user_address');
  });

  it('validates fields', async () => {
    const h = await kit.s2s();
    const ok = { email: `v-${Date.now()}@example.com`, country: 'DE', user_address: randomEoa() };
    for (const [body, field] of [
      [{ ...ok, email: undefined }, 'email'],
      [{ ...ok, country: 'DEU' }, 'country'],
      [{ ...ok, country: 7 }, 'country'],
      [{ ...ok, user_address: undefined }, 'user_address'],
      [{ ...ok, user_address: 'not-an-address' }, 'user_address'],
    ] as const) {
      const r = await kit.call('POST', '/api/v2/user', { headers: h, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorBody(r).details).toEqual([field]);
    }
  });
});

describe('Push to Card', () => {
  it('tokenize -> recipient -> estimate -> execute -> activity webhook', async () => {
    const u = await kit.newUser();
    const t = await tokenize(CARD);
    expect(t.status, t.text).toBe(200);
    expect(t.obj.card_token).toBeTypeOf('string');
    const rec = await kit.call('POST', '/api/v2/recipients', { headers: u.headers, body: { type: 'Card', card_token: t.obj.card_token, first_name: 'Ada', last_name: 'Lovelace', is_business: false } });
    expect(rec.status, rec.text).toBe(200);
    expect(rec.obj.personal_info).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
    const pd = items(rec.obj.payment_details)[0];
    expect(pd).toMatchObject({ type: 'Card', currencies: ['EUR'] });
    const est = await kit.call('POST', '/api/v1/cards/transfer/estimate', { headers: u.headers, body: { recipient_id: rec.obj.id, payment_details_id: pd.id, amount: '25.00', currency: 'EUR' } });
    expect(est.status, est.text).toBe(200);
    expect(items(est.obj.rates)[0]).toMatchObject({ token_symbol: 'USDC' });
    const wh = hooks.waitFor('/v2/webhooks/activities', (b) => field(b, 'payment_details_id') === pd.id, WEBHOOK_WAIT_MS);
    const ex = await kit.call('POST', '/api/v1/cards/transfer', { headers: u.headers, body: { estimation_id: est.obj.estimation_id } });
    expect(ex.status, ex.text).toBe(200);
    const body = (await wh)?.body;
    expect(body).toMatchObject({ activity_id: ex.obj.activity_id, type: 'CardTransaction', direction: 'Outbound', status: 'Completed', amount: '25.00' });
    expect((await kit.call('POST', '/api/v1/cards/transfer', { headers: u.headers, body: { estimation_id: est.obj.estimation_id } })).status).toBe(400);
    const feed = await kit.call('GET', '/api/v1/activity?page_number=1&page_size=10', { headers: u.headers });
    expect(items(feed.obj.data).map((a) => a.activity_id)).toEqual([ex.obj.activity_id]);
    const one = await kit.call('GET', `/api/v1/activity/${ex.obj.activity_id}`, { headers: u.headers });
    expect(one.obj.status).toBe('Completed');
    expect((await kit.call('GET', '/api/v1/activity?page_size=0', { headers: u.headers })).status).toBe(400);
    // Statement over a range containing the transfer.
    const now = Math.floor(Date.now() / 1000);
    const st = await kit.call('POST', '/api/v1/activity/statement/full', { headers: u.headers, body: { start: now - 60, end: now + 60, owner: u.address } });
    expect(st.status, st.text).toBe(200);
    expect(st.obj.data).toHaveLength(1);
    expect(st.obj.user_address).toBe(u.address);
    expect(st.obj.owner).toBe(u.address);
    expect(st.obj.account_address).toBe(st.obj.wallet_address);
  });

  it('settles at once through control and rejects unknown card tokens', async () => {
    const k = await startKit({ settleMs: 60_000 });
    try {
      const u = await k.newUser();
      const bad = await k.call('POST', '/api/v2/recipients', { headers: u.headers, body: { type: 'Card', card_token: 'ctok_nope', first_name: 'A', last_name: 'B', is_business: false } });
      expect(bad.status).toBe(400);
      const t = await k.call('POST', '/b2b/cards/oct', { server: 'pci', body: CARD });
      const rec = await k.call('POST', '/api/v2/recipients', { headers: u.headers, body: { type: 'Card', card_token: t.obj.card_token, first_name: 'A', last_name: 'B', is_business: true } });
      const est = await k.call('POST', '/api/v1/cards/transfer/estimate', { headers: u.headers, body: { payment_details_id: items(rec.obj.payment_details)[0].id, amount: 5 } });
      const ex = await k.call('POST', '/api/v1/cards/transfer', { headers: u.headers, body: { estimation_id: est.obj.estimation_id } });
      expect((await k.call('GET', `/api/v1/activity/${ex.obj.activity_id}`, { headers: u.headers })).obj.status).toBe('Pending');
      expect((await k.call('POST', `/activities/${ex.obj.activity_id}/complete`, { server: 'control', body: {} })).status).toBe(204);
      expect((await k.call('GET', `/api/v1/activity/${ex.obj.activity_id}`, { headers: u.headers })).obj.status).toBe('Completed');
    } finally {
      await k.close();
    }
  });

  it('validates card details', async () => {
    expect((await tokenize({ ...CARD, card_number: '4111' })).status).toBe(400);
    expect((await tokenize({ ...CARD, expiry_month: 13 })).status).toBe(400);
    expect((await tokenize({ ...CARD, cvv: undefined })).status).toBe(200);
  });

  it('N parallel recipient creations make N recipients', async () => {
    const u = await kit.newUser();
    const tokens = await Promise.all(Array.from({ length: 25 }, () => tokenize(CARD)));
    const rs = await Promise.all(
      tokens.map((t, i) => kit.call('POST', '/api/v2/recipients', { headers: u.headers, body: { type: 'Card', card_token: t.obj.card_token, first_name: `F${i}`, last_name: 'L', is_business: false } })),
    );
    expect(rs.every((r) => r.status === 200)).toBe(true);
    // Every recipient's payment details can be estimated against: all 25 were kept.
    const ests = await Promise.all(
      rs.map((r) => kit.call('POST', '/api/v1/cards/transfer/estimate', { headers: u.headers, body: { recipient_id: r.obj.id, payment_details_id: items(r.obj.payment_details)[0].id, amount: '1.00' } })),
    );
    expect(ests.filter((e) => e.status === 200)).toHaveLength(25);
  });

  it('recipient crypto details carry recipient_address and address', async () => {
    const u = await kit.newUser();
    const addr = randomEoa();
    const r = await kit.call('POST', '/api/v2/recipients', { headers: u.headers, body: { type: 'Crypto', recipient_address: addr, first_name: 'A', last_name: 'B', is_business: false } });
    expect(r.status, r.text).toBe(200);
    expect(items(r.obj.payment_details)[0]).toMatchObject({ recipient_address: addr, address: addr });
    const mismatch = await kit.call('POST', '/api/v2/recipients', { headers: u.headers, body: { type: 'Crypto', recipient_address: addr, address: randomEoa(), first_name: 'A', last_name: 'B', is_business: false } });
    expect(mismatch.status).toBe(400);
  });
});

describe('wallets, withdrawals, fx', () => {
  it('reads the default wallet, by id, the list, and creates an XRPL account', async () => {
    const u = await kit.newUser();
    const w = await kit.call('GET', '/api/v1/wallet', { headers: u.headers });
    expect(w.obj.balances).toEqual([{ token_symbol: 'USDC', token_address: expect.any(String), balance: '1000.00' }]);
    const byId = await kit.call('GET', `/api/v1/wallet?wallet_id=${w.obj.id}`, { headers: u.headers });
    expect(byId.obj.wallet_address).toBe(w.obj.wallet_address);
    expect((await kit.call('GET', '/api/v1/wallet?wallet_id=nope', { headers: u.headers })).status).toBe(400);
    const x = await kit.call('POST', '/api/v1/accounts', { headers: u.headers });
    expect(x.obj.wallet_address).toMatch(/^r/);
    const list = await kit.call('GET', '/api/v1/wallets', { headers: u.headers });
    expect(items(list.obj.data).map((v) => v.wallet_address)).toEqual([w.obj.wallet_address, x.obj.wallet_address]);
  });

  it('lists withdrawal requests with aliases and emits the webhook', async () => {
    const u = await kit.newUser();
    const dest = randomEoa();
    const wh = hooks.waitFor('/v2/webhooks/erc-withdrawals', (b) => field(b, 'destination_address') === dest, WEBHOOK_WAIT_MS);
    // Taken before the request: "now + 2" read after the answers would fail whenever the three calls
    // take over a second (a busy machine), though the server did nothing wrong.
    const before = Math.floor(Date.now() / 1000);
    const c = await kit.call('POST', `/users/${u.id}/withdrawal-requests`, { server: 'control', body: { destination_address: dest } });
    expect(c.status).toBe(201);
    const w = await kit.call('GET', '/api/v1/wallet', { headers: u.headers });
    const list = await kit.call('GET', '/api/v1/withdrawal/requests', { headers: u.headers });
    expect(list.json).toHaveLength(1);
    const r = items(list.json)[0];
    expect(r).toMatchObject({ status: 'Requested', wallet_address: w.obj.wallet_address, account_address: w.obj.wallet_address, destination_address: dest, to_address: dest });
    expect(r.call_data).toMatch(/^0x[0-9a-f]+$/);
    expect(r.valid_after).toBeGreaterThanOrEqual(before + 2);
    expect((await wh)?.body).toMatchObject({ account_address: w.obj.wallet_address, to_address: dest });
  });

  it('fx estimate takes destination_address or deposit_address; a mismatch fails', async () => {
    const u = await kit.newUser();
    const a = randomEoa();
    const r1 = await kit.call('POST', '/api/v1/fx/estimate', { headers: u.headers, body: { deposit_address: a } });
    expect(r1.status).toBe(200);
    expect(r1.obj.destination_address).toBe(a);
    expect(r1.obj.deposit_address).toBe(a);
    expect((await kit.call('POST', '/api/v1/fx/estimate', { headers: u.headers, body: { destination_address: a, deposit_address: randomEoa() } })).status).toBe(400);
    expect((await kit.call('POST', '/api/v1/fx/estimate', { headers: u.headers, body: {} })).status).toBe(400);
  });

  it('statement alias mismatch fails', async () => {
    const u = await kit.newUser();
    const r = await kit.call('POST', '/api/v1/activity/statement/full', { headers: u.headers, body: { start: 0, end: 10, user_address: u.address, owner: randomEoa() } });
    expect(r.status).toBe(400);
    expect(errorBody(r).details).toContain('user_address');
  });
});

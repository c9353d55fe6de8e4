import { jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import type { ErrorRuleId, Model } from '../model/types.ts';
import { startTestIdp, type TestIdp } from '../idp/index.ts';
import { S2S_STEPS, USER_TOKEN_STEPS } from './index.ts';
import { errorBody, randomEoa, startKit, type Kit, type Res } from './testkit.ts';

let kit: Kit;
let model: Model;

beforeAll(async () => {
  model = await loadModel();
  kit = await startKit();
});
afterAll(() => kit.close());

/** Asserts the response is the model's row `id` (status, reason, message, category). */
function expectRow(r: Res, id: ErrorRuleId): void {
  const rule = model.errorRule(id);
  const b = errorBody(r);
  expect(r.status, `${id}: ${r.text}`).toBe(rule.status);
  expect(b.code).toBe(rule.status);
  if (rule.reason) expect(b.reason).toBe(rule.reason);
  if (rule.message) expect(b.message).toBe(rule.message);
  if (rule.category) expect(b.category).toBe(rule.category);
  for (const d of rule.details ?? []) expect(b.details).toContain(d);
}

const s2sKey = () => new TextEncoder().encode(kit.p.s2s_signing_secret);
const userKey = () => new TextEncoder().encode(kit.p.user_token_signing_secret);

async function forge(claims: Record<string, unknown>, key: Uint8Array, expSeconds = 3600): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now, exp: now + expSeconds, ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
}

describe('token endpoint', () => {
  it('issues an HS256 S2S token with the section 5 claims', async () => {
    const c = kit.p.clients[0];
    const r = await kit.call('POST', '/api/v1/token', { body: { client_id: c.client_id, client_secret: c.client_secret, grant_type: 'client_credentials', audience: 'x' } });
    expect(r.status).toBe(200);
    expect(r.obj.token_type).toBe('Bearer');
    const { payload, protectedHeader } = await jwtVerify(String(r.obj.access_token), s2sKey());
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.sub).toBe(c.client_id);
    expect(payload.azp).toBe(c.client_id);
    expect(typeof payload.company_id).toBe('string');
    expect(payload.scope).toBe('partner:full');
    expect(typeof payload.iss).toBe('string');
    expect(payload.exp! - payload.iat!).toBe(172800);
    expect(r.obj.expires_at).toBe(payload.exp);
  });

  it('reference choice: also reads application/x-www-form-urlencoded token requests (the spec shows JSON bodies)', async () => {
    const c = kit.p.clients[1];
    const raw = new URLSearchParams({ client_id: c.client_id, client_secret: c.client_secret, grant_type: 'client_credentials' }).toString();
    const r = await kit.call('POST', '/api/v1/token', { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.status).toBe(200);
    expect(r.obj.access_token).toBeTypeOf('string');
  });

  it('answers every token-table row; the order (client_id, client_secret, grant_type, client, secret, company type) is a reference choice', async () => {
    const c = kit.p.clients[0];
    const post = (body: unknown) => kit.call('POST', '/api/v1/token', { body });
    expectRow(await post({ client_secret: 'x', grant_type: 'nope' }), 'ERR-TOKEN-CLIENT-ID-MISSING');
    expectRow(await post({ client_id: c.client_id, grant_type: 'nope' }), 'ERR-TOKEN-CLIENT-SECRET-MISSING');
    expectRow(await post({ client_id: 'unknown', client_secret: 'x', grant_type: 'password' }), 'ERR-TOKEN-GRANT-TYPE-INVALID');
    expectRow(await post({ client_id: c.client_id, client_secret: c.client_secret }), 'ERR-TOKEN-GRANT-TYPE-INVALID');
    expectRow(await post({ client_id: 'unknown', client_secret: 'x', grant_type: 'client_credentials' }), 'ERR-TOKEN-UNKNOWN-CLIENT');
    expectRow(await post({ client_id: c.client_id, client_secret: 'wrong', grant_type: 'client_credentials' }), 'ERR-TOKEN-WRONG-SECRET');
    const ns = kit.p.special_clients!.no_secret!;
    expectRow(await post({ client_id: ns.client_id, client_secret: ns.client_secret, grant_type: 'client_credentials' }), 'ERR-TOKEN-NO-SECRET-CONFIGURED');
    const rt = kit.p.special_clients!.company_type_restricted!;
    expectRow(await post({ client_id: rt.client_id, client_secret: rt.client_secret, grant_type: 'client_credentials' }), 'ERR-TOKEN-COMPANY-TYPE');
  });

  it('rate limits per client with 429, the transient category and Retry-After', async () => {
    const k = await startKit({ rateLimit: { perIp: 1000, perClient: 3, windowMs: 60_000 } });
    try {
      const c = k.p.clients[0];
      const body = { client_id: c.client_id, client_secret: c.client_secret, grant_type: 'client_credentials' };
      const statuses: number[] = [];
      let last: Res | undefined;
      for (let i = 0; i < 5; i++) {
        last = await k.call('POST', '/api/v1/token', { body });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const b = errorBody(last!);
      expect(b.category).toBe('CategoryTransientFailure');
      expect(b.code).toBe(429);
      expect(b.reason).toBe('ErrorRateLimited');
      expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Another client of the same IP is not limited by the first one's window.
      const c2 = k.p.clients[1];
      expect((await k.call('POST', '/api/v1/token', { body: { ...body, client_id: c2.client_id, client_secret: c2.client_secret } })).status).toBe(200);
    } finally {
      await k.close();
    }
  });

  it('rate limits per IP', async () => {
    const k = await startKit({ rateLimit: { perIp: 2, perClient: 100, windowMs: 60_000 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await k.call('POST', '/api/v1/token', { body: {} })).status);
      expect(statuses).toEqual([400, 400, 429]);
    } finally {
      await k.close();
    }
  });
});

describe('S2S token rows', () => {
  const get = (headers: Record<string, string>) => kit.call('GET', '/api/v1/config', { headers });

  it('accepts a valid token on user-agnostic reads', async () => {
    const r = await get({ authorization: `Bearer ${await kit.token()}` });
    expect(r.status).toBe(200);
    expect((await kit.call('GET', '/api/v1/validation/rules', { headers: { authorization: `Bearer ${await kit.token()}` } })).status).toBe(200);
  });

  it('answers every S2S row, in the S2S_STEPS order (a reference choice: the spec lists rows, not their order)', async () => {
    // The order of the rows this test exercises; a claim row added later (its step after these) keeps it.
    const at = (step: (typeof S2S_STEPS)[number]) => S2S_STEPS.indexOf(step);
    expect([at('bearer'), at('signature'), at('expiry'), at('azp'), at('companyId')]).toEqual([0, 1, 2, 3, 4]);
    const company_id = (await jwtVerify(await kit.token(), s2sKey())).payload.company_id;
    const azp = kit.p.clients[0].client_id;
    expectRow(await get({}), 'ERR-S2S-AUTH-HEADER-MISSING');
    expectRow(await get({ authorization: await kit.token() }), 'ERR-S2S-BEARER-FORMAT');
    expectRow(await get({ authorization: 'Basic abc' }), 'ERR-S2S-BEARER-FORMAT');
    expectRow(await get({ authorization: `Bearer ${await forge({ azp, company_id }, new TextEncoder().encode('wrong-secret-wrong-secret'))}` }), 'ERR-S2S-SIGNATURE-INVALID');
    // Expired AND badly signed: the signature row comes first.
    expectRow(await get({ authorization: `Bearer ${await forge({ azp, company_id }, new TextEncoder().encode('wrong'), -10)}` }), 'ERR-S2S-SIGNATURE-INVALID');
    expectRow(await get({ authorization: `Bearer ${await forge({ azp, company_id }, s2sKey(), -10)}` }), 'ERR-S2S-TOKEN-EXPIRED');
    expectRow(await get({ authorization: `Bearer ${await forge({ company_id }, s2sKey())}` }), 'ERR-S2S-AZP-MISSING');
    expectRow(await get({ authorization: `Bearer ${await forge({ azp }, s2sKey())}` }), 'ERR-S2S-COMPANY-ID-MISSING');
    // Two faults at once: the earlier step answers.
    expectRow(await get({ authorization: `Bearer ${await forge({}, s2sKey(), -10)}` }), 'ERR-S2S-TOKEN-EXPIRED');
    expectRow(await get({ authorization: `Bearer ${await forge({}, s2sKey())}` }), 'ERR-S2S-AZP-MISSING');
    // Every claim of a real token, re-signed: accepted (whatever claims the S2S rows require).
    const { iat: _iat, exp: _exp, ...claims } = (await jwtVerify(await kit.token(), s2sKey())).payload;
    expect((await get({ authorization: `Bearer ${await forge(claims, s2sKey())}` })).status).toBe(200);
  });

  it('requires X-Chain-Id on POST /api/v1/user but not on POST /api/v2/user', async () => {
    const auth = { authorization: `Bearer ${await kit.token()}` };
    const body = { email: `v1-${Date.now()}@example.com`, country: 'FR', user_address: randomEoa() };
    expectRow(await kit.call('POST', '/api/v1/user', { body, headers: auth }), 'ERR-S2S-CHAIN-ID-MISSING');
    const ok = await kit.call('POST', '/api/v1/user', { body, headers: { ...auth, 'x-chain-id': '84532' } });
    expect(ok.status).toBe(200);
    expect(ok.obj.id).toBe(ok.obj.user_id);
    const v2 = await kit.call('POST', '/api/v2/user', { body: { ...body, email: `v2-${Date.now()}@example.com`, user_address: randomEoa() }, headers: auth });
    expect(v2.status).toBe(200);
  });
});

describe('identity headers', () => {
  it('needs X-Chain-Id, then exactly one identity header', async () => {
    const u = await kit.newUser();
    const auth = { authorization: `Bearer ${await kit.token()}` };
    expectRow(await kit.call('GET', '/api/v1/user', { headers: { ...auth, 'x-user-id': u.id } }), 'ERR-S2S-CHAIN-ID-MISSING');
    const h = { ...auth, 'x-chain-id': '84532' };
    expectRow(await kit.call('GET', '/api/v1/user', { headers: h }), 'ERR-S2S-USER-IDENTIFIER-MISSING');
    expectRow(await kit.call('GET', '/api/v1/user', { headers: { ...h, 'x-user-id': u.id, 'x-user-email': u.email } }), 'ERR-S2S-USER-IDENTIFIER-MULTIPLE');
    expectRow(await kit.call('GET', '/api/v1/user', { headers: { ...h, 'x-user-id': '00000000-0000-4000-8000-000000000000' } }), 'ERR-S2S-USER-NOT-FOUND');
    const idents: Record<string, string>[] = [{ 'x-user-id': u.id }, { 'x-user-email': u.email.toUpperCase() }, { 'x-user-wallet': u.address.toUpperCase().replace('0X', '0x') }];
    for (const ident of idents) {
      const r = await kit.call('GET', '/api/v1/user', { headers: { ...h, ...ident } });
      expect(r.status, r.text).toBe(200);
      expect(r.obj.user_id).toBe(u.id);
    }
  });

  it('X-User-Wallet matches the EOA, never the Smart Wallet', async () => {
    const u = await kit.newUser();
    const w = await kit.call('GET', '/api/v1/wallet', { headers: u.headers });
    expect(w.status).toBe(200);
    expect(w.obj.wallet_address).not.toBe(u.address);
    const h = await kit.s2s();
    expectRow(await kit.call('GET', '/api/v1/user', { headers: { ...h, 'x-user-wallet': String(w.obj.wallet_address) } }), 'ERR-S2S-USER-NOT-FOUND');
  });

  it('isolates companies', async () => {
    const u = await kit.newUser(0);
    const other = await kit.s2s(1);
    expectRow(await kit.call('GET', '/api/v1/user', { headers: { ...other, 'x-user-id': u.id } }), 'ERR-S2S-USER-NOT-FOUND');
    expectRow(await kit.call('GET', '/api/v1/user', { headers: { ...other, 'x-user-email': u.email } }), 'ERR-S2S-USER-NOT-FOUND');
    expectRow(await kit.call('GET', '/api/v1/user', { headers: { ...other, 'x-user-wallet': u.address } }), 'ERR-S2S-USER-NOT-FOUND');
  });

  it('v1 read has no capabilities; v2 read has them', async () => {
    const u = await kit.newUser();
    const v1 = await kit.call('GET', '/api/v1/user', { headers: u.headers });
    expect(Object.keys(v1.obj).sort()).toEqual(['country', 'email', 'id', 'user_address', 'user_id', 'wallet_address']);
    expect(v1.obj.wallet_address).toBe(v1.obj.user_address);
    const v2 = await kit.call('GET', '/api/v2/user', { headers: u.headers });
    expect(v2.obj.capabilities).toEqual([
      { type: 'VisaVirtualCard', status: 'Active' },
      { type: 'SepaAccount', status: 'ActivationNotStarted' },
    ]);
  });
});

describe('verified-token cache', () => {
  it('skips only the format and signature steps of a header seen before: expiry and kind are judged on every call', async () => {
    const k = await startKit();
    try {
      const h = { ...(await k.s2s()), 'x-user-id': (await k.newUser()).id };
      for (let i = 0; i < 3; i++) expect((await k.call('GET', '/api/v1/user', { headers: h })).status).toBe(200);
      // The same header, once the server clock is past exp (the model's validity), is expired.
      await k.call('POST', '/clock/advance', { server: 'control', body: { seconds: model.limits.s2s_token_validity!.value! + 1 } });
      const expired = await k.call('GET', '/api/v1/user', { headers: h });
      expect(expired.status, expired.text).toBe(model.errorRule('ERR-S2S-TOKEN-EXPIRED').status);
      expect(errorBody(expired).reason).toBe(model.errorRule('ERR-S2S-TOKEN-EXPIRED').reason);
    } finally {
      await k.close();
    }
  });
});

describe('user tokens', () => {
  it('are issued by authorize (S2S form) and used with X-Chain-Id only', async () => {
    const u = await kit.newUser();
    const h = await kit.s2s();
    const a = await kit.call('POST', '/api/v1/user/authorize', { headers: { ...h, 'x-user-wallet': u.address } });
    expect(a.status, a.text).toBe(200);
    expect(Object.keys(a.obj).sort()).toEqual(['access_token', 'expires_at']);
    const { payload } = await jwtVerify(String(a.obj.access_token), userKey());
    expect(payload).toMatchObject({ user_id: u.id, email: u.email, user_address: u.address });
    const bearer = { authorization: `Bearer ${a.obj.access_token}` };
    expectRow(await kit.call('GET', '/api/v1/user', { headers: bearer }), 'ERR-S2S-CHAIN-ID-MISSING');
    const r = await kit.call('GET', '/api/v2/user', { headers: { ...bearer, 'x-chain-id': '84532' } });
    expect(r.status).toBe(200);
    expect(r.obj.user_id).toBe(u.id);
    const v = await kit.call('POST', '/api/v1/user/retail/validate', { headers: { ...bearer, 'x-chain-id': '84532' } });
    expect(v.json).toEqual({ id: u.id, user_id: u.id, user_address: u.address, wallet_address: u.address });
    // A user token is not an S2S token on user-agnostic endpoints.
    expectRow(await kit.call('GET', '/api/v1/config', { headers: bearer }), 'ERR-S2S-SIGNATURE-INVALID');
  });

  it('takes X-Chain-Id of ASCII digits only: any other value answers 400 naming the header', async () => {
    const u = await kit.newUser();
    const h = { ...(await kit.s2s()), 'x-user-wallet': u.address };
    for (const chain of ['0', '84532', '00012345678901234567890']) {
      const r = await kit.call('GET', '/api/v1/user', { headers: { ...h, 'x-chain-id': chain } });
      expect(r.status, `${chain}: ${r.text}`).toBe(200);
    }
    for (const chain of ['abc', '12a', 'a12', '1 2', '-1', '1.5', '+7', '\uff11\uff12', '٣']) {
      const r = await kit.call('GET', '/api/v1/user', { headers: { ...h, 'x-chain-id': encodeURI(chain) === chain ? chain : Buffer.from(chain, 'utf8').toString('latin1') } });
      expect(r.status, `${JSON.stringify(chain)}: ${r.text}`).toBe(400);
      expect(errorBody(r).details).toContain(model.auth.chain_header);
    }
  });

  it('answers every user-token row, in the USER_TOKEN_STEPS order (a reference choice)', async () => {
    const u = await kit.newUser();
    const company_id = (await jwtVerify(await kit.token(), s2sKey())).payload.company_id;
    const full = { user_id: u.id, email: u.email, user_address: u.address, company_id };
    const get = async (claims: Record<string, unknown>, exp = 3600) =>
      kit.call('GET', '/api/v1/user', { headers: { authorization: `Bearer ${await forge(claims, userKey(), exp)}`, 'x-chain-id': '84532' } });
    expect((await get(full)).status).toBe(200);
    expectRow(await get(full, -5), 'ERR-USER-TOKEN-EXPIRED');
    expect(USER_TOKEN_STEPS).toEqual(['bearer', 'signature', 'expiry', 'userId', 'email', 'address']);
    const { user_id: _a, ...noId } = full;
    expectRow(await get(noId), 'ERR-USER-TOKEN-USER-ID-MISSING');
    const { email: _b, ...noEmail } = full;
    expectRow(await get(noEmail), 'ERR-USER-TOKEN-EMAIL-MISSING');
    const { user_address: _c, ...noAddr } = full;
    expectRow(await get(noAddr), 'ERR-USER-TOKEN-ADDRESS-MISSING');
    // Two faults at once: the earlier step answers.
    expectRow(await get({ company_id }, -5), 'ERR-USER-TOKEN-EXPIRED');
    expectRow(await get({ user_address: u.address, company_id }), 'ERR-USER-TOKEN-USER-ID-MISSING');
    expectRow(await get({ user_id: u.id, company_id }), 'ERR-USER-TOKEN-EMAIL-MISSING');
    expectRow(await get({ ...full, company_id: 'another' }), 'ERR-S2S-USER-NOT-FOUND');
  });
});

describe('identity-provider exchange', () => {
  let idp: TestIdp;
  beforeAll(async () => {
    idp = await startTestIdp();
    const r = await kit.call('PUT', '/idp', { server: 'control', body: { client_id: kit.p.clients[0].client_id, app_id: idp.appId, jwks_url: idp.jwksUrl } });
    expect(r.status).toBe(204);
  });
  afterAll(() => idp.close());

  const headers = (access: string, identity?: string) => ({
    authorization: `Bearer ${access}`,
    ...(identity ? { identity: `Bearer ${identity}` } : {}),
    'x-chain-id': '84532',
  });

  it('registers a retail user, then authorizes it', async () => {
    const who = idp.newIdentity();
    const h = headers(await idp.accessToken({ sub: who.sub }), await idp.identityToken({ sub: who.sub }));
    const notYet = await kit.call('POST', '/api/v1/user/authorize', { headers: h });
    expectRow(notYet, 'ERR-S2S-USER-NOT-FOUND');
    const reg = await kit.call('POST', '/api/v1/user/retail', { headers: h, body: { country: 'DE' } });
    expect(reg.status, reg.text).toBe(200);
    expect(Object.keys(reg.obj)).toEqual(['id']);
    const a = await kit.call('POST', '/api/v1/user/authorize', { headers: h });
    expect(a.status, a.text).toBe(200);
    const me = await kit.call('GET', '/api/v1/user', { headers: { authorization: `Bearer ${a.obj.access_token}`, 'x-chain-id': '84532' } });
    expect(me.json).toMatchObject({ user_id: reg.obj.id, email: who.email, user_address: who.wallet, country: 'DE' });
  });

  it('answers every identity-provider row; the order (app by aud before the signatures) is a reference choice', async () => {
    const good = await idp.accessToken();
    const goodId = await idp.identityToken();
    const post = (h: Record<string, string>) => kit.call('POST', '/api/v1/user/retail', { headers: h, body: { country: 'DE' } });
    expectRow(await post({ identity: `Bearer ${goodId}`, 'x-chain-id': '84532' }), 'ERR-IDP-AUTH-HEADER-MISSING');
    expectRow(await post(headers(good)), 'ERR-IDP-IDENTITY-HEADER-MISSING');
    expectRow(await post(headers(await idp.accessToken({ badSignature: true }), goodId)), 'ERR-IDP-ACCESS-TOKEN-SIGNATURE');
    expectRow(await post(headers(await idp.accessToken({ expiresIn: -60 }), goodId)), 'ERR-IDP-ACCESS-TOKEN-EXPIRED');
    expectRow(await post(headers(good, await idp.identityToken({ badSignature: true }))), 'ERR-IDP-ID-TOKEN-SIGNATURE');
    expectRow(await post(headers(good, await idp.identityToken({ expiresIn: -60 }))), 'ERR-IDP-ID-TOKEN-EXPIRED');
    expectRow(await post(headers(good, await idp.identityToken({ omitLinkedAccounts: true }))), 'ERR-IDP-LINKED-ACCOUNTS-MISSING');
    expectRow(await post(headers(good, await idp.identityToken({ omitEmail: true }))), 'ERR-IDP-IDENTIFIERS-INCOMPLETE');
    expectRow(await post(headers(good, await idp.identityToken({ omitWallet: true }))), 'ERR-IDP-IDENTIFIERS-INCOMPLETE');
    expectRow(await post(headers(await idp.accessToken({ aud: 'unregistered-app' }), goodId)), 'ERR-IDP-APP-NOT-REGISTERED');
    // The authorize path picks the provider form from the Identity header or a non-HS256 token.
    expectRow(await kit.call('POST', '/api/v1/user/authorize', { headers: headers(good) }), 'ERR-IDP-IDENTITY-HEADER-MISSING');
  });
});

// The memos of a kept-alive connection: the verified token (auth/token-steps.ts) and the whole user
// call (auth/index.ts). Every request on one connection is judged on its own headers. A changed token
// goes through the format and signature rows again, and a remembered one still has its expiry and kind
// judged. A remembered token's claim rows are judged once: a token missing a claim answers that row on
// every request, and the expiry row first once it has expired (section 7 lists expiry above the claims).
// A changed identity or chain header is judged through every step again.

import { SignJWT } from 'jose';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import type { ErrorRuleId, Model } from '../model/types.ts';
import { errorBody, startKit, type Kit } from './testkit.ts';

let kit: Kit;
let model: Model;
let conn: Client;

/** A reference of the describe's own (each moves the server clock) and one connection to it: every request reuses the same socket. */
function ownKit(): void {
  beforeAll(async () => {
    model = await loadModel();
    kit = await startKit();
    conn = new Client(kit.p.base_url, { pipelining: 1 });
  });
  afterAll(async () => {
    await conn.close();
    await kit.close();
  });
}

async function read(headers: Record<string, string>): Promise<{ status: number; text: string; json: unknown }> {
  const r = await conn.request({ method: 'GET', path: model.operation('getUserV1').path, headers });
  const text = await r.body.text();
  return { status: r.statusCode, text, json: JSON.parse(text) };
}

function expectRow(r: { status: number; text: string; json: unknown }, id: ErrorRuleId): void {
  const rule = model.errorRule(id);
  expect(r.status, `${id}: ${r.text}`).toBe(rule.status);
  expect(errorBody(r).reason).toBe(rule.reason);
}

describe('tokens on one kept-alive connection', () => {
  ownKit();
  it('a token changed between requests is checked again, and the remembered one still expires', async () => {
    const user = await kit.newUser();
    const idHeader = model.auth.identity_headers.find((h) => /-id$/i.test(h))!.toLowerCase();
    const valid = { ...(await kit.s2s()), [idHeader]: user.id };
    const auth = valid.authorization;
    // The first signature character changed: the same shape, a signature that no longer verifies. Not the
    // last one: its low bits are base64url padding, so some changes there decode to the same signature.
    const sig = auth.lastIndexOf('.') + 1;
    const tampered = { ...valid, authorization: auth.slice(0, sig) + (auth[sig] === 'A' ? 'B' : 'A') + auth.slice(sig + 1) };
    const unsigned = { ...valid, authorization: auth.slice(0, auth.lastIndexOf('.') + 1) };
    expect((await read(valid)).status).toBe(200);
    expect((await read(valid)).status).toBe(200);
    expectRow(await read(tampered), 'ERR-S2S-SIGNATURE-INVALID');
    expectRow(await read(unsigned), 'ERR-S2S-SIGNATURE-INVALID');
    expectRow(await read({ ...valid, authorization: `bearer ${auth.slice('Bearer '.length)}` }), 'ERR-S2S-BEARER-FORMAT');
    expect((await read(valid)).status).toBe(200);
    // A user token on the same connection is judged as a user token (its own user, no identity header).
    const authorized = await kit.call('POST', model.operation('authorizeUser').path, { headers: valid });
    expect(authorized.status, authorized.text).toBe(200);
    const userRead = await read({ authorization: `Bearer ${String(authorized.obj.access_token)}`, [model.auth.chain_header.toLowerCase()]: kit.p.chain_id! });
    expect(userRead.status, userRead.text).toBe(200);
    expect(Object.values(userRead.json as Record<string, unknown>)).toContain(user.id);
    // Past the S2S validity on the server clock, the remembered header answers the expiry row.
    expect((await read(valid)).status).toBe(200);
    await kit.call('POST', '/clock/advance', { server: 'control', body: { seconds: model.limits.s2s_token_validity!.value! + 1 } });
    expectRow(await read(valid), 'ERR-S2S-TOKEN-EXPIRED');
  });
});

describe('claim rows of a remembered token', () => {
  ownKit();
  const forge = (claims: Record<string, unknown>, secret: string, iat: number, exp: number) =>
    new SignJWT({ ...claims, iat, exp }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
  /** Decoded claims of a token the reference issued, to forge copies that lack one claim. */
  const claimsOf = (auth: string): Record<string, unknown> => JSON.parse(Buffer.from(auth.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

  it('answer the missing claim on every request, and expiry first once the token has expired', async () => {
    const user = await kit.newUser();
    const chain = model.auth.chain_header.toLowerCase();
    const idHeader = model.auth.identity_headers.find((h) => /-id$/i.test(h))!.toLowerCase();
    const s2s = await kit.s2s();
    const { azp: _azp, ...noAzp } = claimsOf(s2s.authorization);
    const authorized = await kit.call('POST', model.operation('authorizeUser').path, { headers: { ...s2s, [idHeader]: user.id } });
    expect(authorized.status, authorized.text).toBe(200);
    const { email: _email, ...noEmail } = claimsOf(`Bearer ${String(authorized.obj.access_token)}`);
    // The reference clock is read through a token it issues now: forged tokens live one hour past it.
    const now = Number(claimsOf(s2s.authorization).iat);
    const s2sNoAzp = { ...s2s, authorization: `Bearer ${await forge(noAzp, kit.p.s2s_signing_secret!, now, now + 3600)}`, [idHeader]: user.id };
    const userNoEmail = { authorization: `Bearer ${await forge(noEmail, kit.p.user_token_signing_secret!, now, now + 3600)}`, [chain]: kit.p.chain_id! };
    for (let i = 0; i < 3; i++) {
      expectRow(await read(s2sNoAzp), 'ERR-S2S-AZP-MISSING');
      expectRow(await read(userNoEmail), 'ERR-USER-TOKEN-EMAIL-MISSING');
    }
    // Alternating the two tokens above re-verified each one; the same header twice in a row is the memo's case.
    expectRow(await read(userNoEmail), 'ERR-USER-TOKEN-EMAIL-MISSING');
    expectRow(await read(userNoEmail), 'ERR-USER-TOKEN-EMAIL-MISSING');
    await kit.call('POST', '/clock/advance', { server: 'control', body: { seconds: 7200 } });
    expectRow(await read(userNoEmail), 'ERR-USER-TOKEN-EXPIRED');
    expectRow(await read(s2sNoAzp), 'ERR-S2S-TOKEN-EXPIRED');
    expectRow(await read(s2sNoAzp), 'ERR-S2S-TOKEN-EXPIRED');
  });
});

// The user-call memo of a kept-alive connection (auth/index.ts): a repeat of the same headers judges
// expiry alone, and any changed header is judged through every step again.
describe('user calls repeated on one connection', () => {
  ownKit();
  it('a changed identity, chain or token header is judged again; a repeated one still expires', async () => {
    const a = await kit.newUser();
    const b = await kit.newUser();
    const other = await kit.newUser(1);
    const chain = model.auth.chain_header.toLowerCase();
    const [idH, emailH, walletH] = [/-id$/i, /email/i, /wallet/i].map((re) => model.auth.identity_headers.find((h) => re.test(h))!.toLowerCase());
    const s2s = await kit.s2s();
    const asA = { ...s2s, [idH]: a.id };
    const userOf = (r: { json: unknown }) => Object.values(r.json as Record<string, unknown>);
    for (let i = 0; i < 2; i++) expect(userOf(await read(asA))).toContain(a.id);
    expect(userOf(await read({ ...s2s, [idH]: b.id }))).toContain(b.id);
    expect(userOf(await read({ ...s2s, [idH]: b.id }))).toContain(b.id);
    // Another company's user: company-scoped, whatever the connection read before.
    expectRow(await read({ ...s2s, [idH]: other.id }), 'ERR-S2S-USER-NOT-FOUND');
    expect(userOf(await read(asA))).toContain(a.id);
    const badChain = await read({ ...asA, [chain]: 'x1' });
    expect(badChain.status, badChain.text).toBe(400);
    expect(errorBody(badChain).details).toContain(model.auth.chain_header);
    expect(userOf(await read(asA))).toContain(a.id);
    const { [chain]: _chain, ...noChain } = asA;
    expectRow(await read(noChain), 'ERR-S2S-CHAIN-ID-MISSING');
    expect(userOf(await read(asA))).toContain(a.id);
    expectRow(await read({ ...asA, [emailH]: a.email }), 'ERR-S2S-USER-IDENTIFIER-MULTIPLE');
    expect(userOf(await read(asA))).toContain(a.id);
    expectRow(await read({ ...asA, [walletH]: a.address }), 'ERR-S2S-USER-IDENTIFIER-MULTIPLE');
    expect(userOf(await read(asA))).toContain(a.id);
    const { [idH]: _id, ...noIdentity } = asA;
    expectRow(await read(noIdentity), 'ERR-S2S-USER-IDENTIFIER-MISSING');
    // A user token, repeated: its own user, until it expires on the server clock.
    const authorized = await kit.call('POST', model.operation('authorizeUser').path, { headers: { ...s2s, [idH]: b.id } });
    expect(authorized.status, authorized.text).toBe(200);
    const asB = { authorization: `Bearer ${String(authorized.obj.access_token)}`, [chain]: kit.p.chain_id! };
    for (let i = 0; i < 2; i++) expect(userOf(await read(asB))).toContain(b.id);
    // An identity header next to a user token changes nothing: the token's own user (section 5).
    for (let i = 0; i < 2; i++) expect(userOf(await read({ ...asB, [idH]: a.id }))).not.toContain(a.id);
    await kit.call('POST', '/clock/advance', { server: 'control', body: { seconds: Number(authorized.obj.expires_at) - Math.floor(Date.now() / 1000) + 1 } });
    expectRow(await read(asB), 'ERR-USER-TOKEN-EXPIRED');
    expectRow(await read(asB), 'ERR-USER-TOKEN-EXPIRED');
  });
});

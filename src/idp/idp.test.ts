import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIdp, type TestIdp } from './index.ts';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startTestIdp();
});
afterAll(() => idp.close());

describe('test identity provider', () => {
  it('serves a JWKS that verifies its tokens', async () => {
    const jwks = createRemoteJWKSet(new URL(idp.jwksUrl));
    const id = idp.newIdentity();
    const access = await idp.accessToken({ sub: id.sub });
    const { payload } = await jwtVerify(access, jwks, { issuer: idp.issuer, audience: idp.appId });
    expect(payload.sub).toBe(id.sub);
    expect(idp.appId).toMatch(/^app-[0-9a-f]+$/);
    const identity = await idp.identityToken({ sub: id.sub });
    const claims = (await jwtVerify(identity, jwks)).payload;
    expect(claims.linked_accounts).toEqual([
      { type: 'email', address: id.email },
      { type: 'wallet', address: id.eoa, chain_type: 'ethereum' },
      { type: 'smart_wallet', address: id.wallet, chain_type: 'ethereum' },
    ]);
  });

  it('writes the JWS jose would (header, claim order), signed r || s as ES256 wants', async () => {
    const token = await idp.identityToken({ sub: 'user-fixed' });
    const { iss, sub, aud, iat, exp, ...claims } = decodeJwt(token);
    const { privateKey } = await generateKeyPair('ES256');
    const jose = await new SignJWT(claims).setProtectedHeader({ ...decodeProtectedHeader(token), alg: 'ES256' }).setIssuer(iss!).setSubject(sub!).setAudience(aud!).setIssuedAt(iat!).setExpirationTime(exp!).sign(privateKey);
    expect(token.split('.').slice(0, 2)).toEqual(jose.split('.').slice(0, 2));
    expect(Buffer.from(token.split('.')[2], 'base64url')).toHaveLength(64);
  });

  it('mints expired, badly signed and incomplete tokens on request', async () => {
    const jwks = createRemoteJWKSet(new URL(idp.jwksUrl));
    await expect(jwtVerify(await idp.accessToken({ expiresIn: -60 }), jwks)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
    await expect(jwtVerify(await idp.identityToken({ badSignature: true }), jwks)).rejects.toMatchObject({
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
    expect(decodeJwt(await idp.identityToken({ omitLinkedAccounts: true })).linked_accounts).toBeUndefined();
    expect(decodeJwt(await idp.identityToken({ omitEmail: true })).linked_accounts).toEqual([
      expect.objectContaining({ type: 'wallet' }),
      expect.objectContaining({ type: 'smart_wallet' }),
    ]);
    expect(decodeJwt(await idp.identityToken({ omitWallet: true, email: 'a@b.c' })).linked_accounts).toEqual([{ type: 'email', address: 'a@b.c' }]);
    expect(decodeJwt(await idp.accessToken({ aud: 'other-app' })).aud).toBe('other-app');
  });
});

describe('stable out-of-band key', () => {
  it('signs with the given key and app id across restarts, and serves it at the public path', async () => {
    const { exportJWK, generateKeyPair } = await import('jose');
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const signingKey = await exportJWK(privateKey);
    const keys: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const probe = await startTestIdp({ signingKey, appId: 'partner-app' });
      const port = Number(new URL(probe.jwksUrl).port);
      await probe.close();
      const p = await startTestIdp({ port, signingKey, appId: 'partner-app', publicJwksUrl: `http://127.0.0.1:${port}/registered/keys.json` });
      try {
        const jwks = await (await fetch(p.jwksUrl)).json();
        expect(jwks.keys[0].d).toBeUndefined();
        keys.push(jwks.keys[0]);
        const token = await p.accessToken();
        expect(decodeJwt(token).aud).toBe('partner-app');
        await jwtVerify(token, createRemoteJWKSet(new URL(p.jwksUrl)));
        await expect(jwtVerify(await p.accessToken({ badSignature: true }), createRemoteJWKSet(new URL(p.jwksUrl)))).rejects.toThrow();
      } finally {
        await p.close();
      }
    }
    // Same published key (and kid) on both runs: what the vendor registered keeps working.
    expect(keys[1]).toEqual(keys[0]);
  });
});

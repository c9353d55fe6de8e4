// Test identity provider: the stand-in for a wallet identity provider (section 5, identity-provider
// exchange). ES256 keys, a JWKS endpoint on loopback, and token minting with the knobs the section 7
// identity-provider rows need (expired, bad signature, missing linked accounts, missing entries).

import { createHash, KeyObject, randomBytes, sign as signBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { IdpTokenOptions, TestIdentityProvider } from '../checks/types.ts';
import { LISTEN_DEFAULTS } from '../options/defaults.ts';

export const IDP_DEFAULTS = {
  /** Token lifetime when `expiresIn` is not given. */
  expiresIn: 3600,
  jwksPath: '/.well-known/jwks.json',
  host: LISTEN_DEFAULTS.host,
} as const;

export interface TestIdp extends TestIdentityProvider {
  /** A fresh provider user: sub plus the email, smart wallet and EOA its identity token links. */
  newIdentity(): { sub: string; email: string; wallet: string; eoa: string };
  close(): Promise<void>;
}

function randomId(prefix: string): string {
  return `${prefix}-${randomBytes(8).toString('hex')}`;
}

/** Default email and wallet derive from `sub`, so an access and an identity token minted for the same sub agree. */
function emailFor(sub: string): string {
  return `${sub.replace(/[^A-Za-z0-9._-]/g, '_')}@example.com`;
}
function walletFor(sub: string): string {
  return `0x${createHash('sha256').update(`wallet:${sub}`).digest('hex').slice(0, 40)}`;
}
function eoaFor(sub: string): string {
  return `0x${createHash('sha256').update(`eoa:${sub}`).digest('hex').slice(0, 40)}`;
}

export interface TestIdpOptions {
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /**
   * A stable private JWK (ES256) instead of a fresh key: the vendor was given its public half out of
   * band, so it must not change between runs. Its `kid` is kept when present.
   */
  signingKey?: JWK;
  /** Provider app id the vendor was configured with (default: a fresh one per run). */
  appId?: string;
  /** Public URL of the JWKS as registered with the vendor (default: the listen address). */
  publicJwksUrl?: string;
  issuer?: string;
}

async function keyPair(jwk: JWK | undefined): Promise<{ kid: string; privateKey: CryptoKey; publicJwk: JWK }> {
  if (!jwk) {
    const good = await generateKeyPair('ES256', { extractable: true });
    return { kid: randomId('kid'), privateKey: good.privateKey, publicJwk: await exportJWK(good.publicKey) };
  }
  const privateKey = (await importJWK({ ...jwk, alg: 'ES256' }, 'ES256')) as CryptoKey;
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
  // A stable kid derived from the public key when the JWK has none, so the JWKS stays the same across runs.
  const kid = jwk.kid ?? `kid-${createHash('sha256').update(JSON.stringify([pub.crv, pub.x, pub.y])).digest('hex').slice(0, 16)}`;
  return { kid, privateKey, publicJwk: pub };
}

export async function startTestIdp(opts: TestIdpOptions = {}): Promise<TestIdp> {
  const host = opts.host ?? IDP_DEFAULTS.host;
  const good = await keyPair(opts.signingKey);
  const kid = good.kid;
  // The rogue key is never published. It signs under the same kid so the target finds "its" key and
  // the signature check (not key lookup) is what fails, matching "signature is not valid".
  const rogue = await generateKeyPair('ES256');
  const jwk: JWK = { ...good.publicJwk, kid, alg: 'ES256', use: 'sig' };
  const jwks = JSON.stringify({ keys: [jwk] });

  // Behind a tunnel the registered URL may have another path; serve the key set there too.
  const publicPath = opts.publicJwksUrl ? new URL(opts.publicJwksUrl).pathname : IDP_DEFAULTS.jwksPath;
  const server: Server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method === 'GET' && (path === IDP_DEFAULTS.jwksPath || path === publicPath)) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(jwks);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"not found"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const jwksUrl = opts.publicJwksUrl ?? `http://${shown}:${port}${IDP_DEFAULTS.jwksPath}`;
  const issuer = opts.issuer ?? new URL(jwksUrl).origin;
  const appId = opts.appId ?? randomId('app');

  // Signed with node:crypto at once, not WebCrypto's job queue: a run mints hundreds of provider tokens,
  // and each cost five times the ECDSA signature itself. The JWS is what jose's SignJWT writes: the
  // same header, the claims then iss, sub, aud, iat, exp, the signature as r || s (RFC 7518 3.4).
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid, typ: 'JWT' })).toString('base64url');
  const goodKey = KeyObject.from(good.privateKey);
  const rogueKey = KeyObject.from(rogue.privateKey);
  async function sign(claims: Record<string, unknown>, o: IdpTokenOptions): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + (o.expiresIn ?? IDP_DEFAULTS.expiresIn);
    // An expired token was still issued before it expired.
    const iat = Math.min(now, exp - 60);
    const payload = { ...claims, iss: issuer, sub: o.sub ?? randomId('user'), aud: o.aud ?? appId, iat, exp };
    const input = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const signature = signBytes('sha256', Buffer.from(input), { key: o.badSignature ? rogueKey : goodKey, dsaEncoding: 'ieee-p1363' });
    return `${input}.${signature.toString('base64url')}`;
  }

  return {
    jwksUrl,
    issuer,
    appId,
    newIdentity() {
      const sub = randomId('user');
      return { sub, email: emailFor(sub), wallet: walletFor(sub), eoa: eoaFor(sub) };
    },
    accessToken(o: IdpTokenOptions = {}) {
      return sign({}, o);
    },
    identityToken(o: IdpTokenOptions = {}) {
      const sub = o.sub ?? randomId('user');
      const claims: Record<string, unknown> = {};
      if (!o.omitLinkedAccounts) {
        const linked: Record<string, string>[] = [];
        if (!o.omitEmail) linked.push({ type: 'email', address: o.email ?? emailFor(sub) });
        // As a wallet provider links them: the embedded EOA (type wallet) and the smart wallet it owns.
        // Section 5 names smart_wallet as an example type and section 2 makes user_address the EOA, so
        // a server may take either as the user's address (AUTH-IDP-EXCHANGE reading user-address).
        if (!o.omitWallet) {
          linked.push({ type: 'wallet', address: o.eoa ?? eoaFor(sub), chain_type: 'ethereum' });
          linked.push({ type: 'smart_wallet', address: o.wallet ?? walletFor(sub), chain_type: 'ethereum' });
        }
        claims.linked_accounts = linked;
      }
      return sign(claims, { ...o, sub });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

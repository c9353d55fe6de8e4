// Ed25519 keys as JWK files (jose). The signing key comes from --key (a private JWK) or is generated
// for one package; only the public half is ever written. kid is the RFC 7638 thumbprint.

import { readInputFile } from '../input/index.ts';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { CertifyKeyError } from './errors.ts';

export const SIGNING_ALG = 'EdDSA';

export interface SigningKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  kid: string;
}

export async function thumbprint(jwk: JWK): Promise<string> {
  return calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x } as JWK);
}

async function readJwk(file: string): Promise<JWK> {
  const doc = await readInputFile(file, { what: 'key', format: 'json', error: (f, _pointer, problem) => new CertifyKeyError(f, `${problem}; give an Ed25519 JWK ({"kty":"OKP","crv":"Ed25519","x":...})`) });
  const jwk = doc.value as JWK;
  if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new CertifyKeyError(file, 'is not an Ed25519 JWK (kty OKP, crv Ed25519, x)');
  return jwk;
}

/** Public half of a JWK (drops d and anything private). */
export function publicOf(jwk: JWK): JWK {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
}

export async function loadSigningKey(file: string): Promise<SigningKey> {
  const jwk = await readJwk(file);
  if (typeof jwk.d !== 'string') throw new CertifyKeyError(file, 'has no private part (d): certify signs, so it needs the private JWK; verify takes the public one');
  let privateKey: CryptoKey;
  try {
    privateKey = (await importJWK(jwk, SIGNING_ALG)) as CryptoKey;
  } catch (err) {
    throw new CertifyKeyError(file, `is not a usable Ed25519 private key (${(err as Error).message})`);
  }
  const publicJwk = publicOf(jwk);
  return { privateKey, publicJwk, kid: await thumbprint(publicJwk) };
}

export async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { crv: 'Ed25519' });
  const publicJwk = publicOf(await exportJWK(publicKey));
  return { privateKey, publicJwk, kid: await thumbprint(publicJwk) };
}

/** A verification key from a JWK file (a private JWK is accepted; only its public half is used). */
export async function loadVerifyKey(file: string): Promise<{ key: CryptoKey; kid: string }> {
  const jwk = publicOf(await readJwk(file));
  try {
    return { key: (await importJWK(jwk, SIGNING_ALG)) as CryptoKey, kid: await thumbprint(jwk) };
  } catch (err) {
    throw new CertifyKeyError(file, `is not a usable Ed25519 public key (${(err as Error).message})`);
  }
}

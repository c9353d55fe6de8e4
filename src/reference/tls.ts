// The reference's TLS identity for `serve --tls` and the selftest's TLS variants: a throw-away CA,
// made at startup, signs one server certificate for the loopback names. Node has no X.509 generator,
// so node-forge builds the certificates; the keys and the RSA signatures come from node:crypto (native,
// off the event loop for the keys: pure-JS RSA would stall a selftest's other runs for a second). The CA's
// private key is dropped once the server certificate is signed: nothing else can ever be issued
// under it, so trusting it (profile.ca_file) trusts this one server only.

import { constants, generateKeyPair, privateEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { promisify } from 'node:util';
import type forge from 'node-forge';

/** node-forge, loaded by the first generateTlsIdentity: only TLS references need it, not every CLI start. */
let lib: typeof forge;

export interface TlsIdentity {
  /** The CA certificate (PEM): what the client trusts, written to profile.ca_file. */
  caPem: string;
  /** The server's certificate (PEM), signed by the CA. */
  certPem: string;
  /** The server's private key (PEM, PKCS#8). */
  keyPem: string;
}

/** Names every reference certificate carries, whatever the listen address: the loopback ones. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];
/** Valid from an hour ago (clock skew) for 30 days: longer than any serve session. */
const SKEW_MS = 3600_000;
const VALID_MS = 30 * 86400_000;

const keyPair = promisify(generateKeyPair);

interface Pair {
  pem: string;
  key: KeyObject;
  pub: forge.pki.rsa.PublicKey;
}

async function rsaPair(): Promise<Pair> {
  const { privateKey, publicKey } = await keyPair('rsa', { modulusLength: 2048 });
  return {
    pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    key: privateKey,
    pub: lib.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()) as forge.pki.rsa.PublicKey,
  };
}

/** DER prefix of a SHA-256 DigestInfo (RFC 8017 section 9.2): with it, PKCS#1 type-1 padding is RSASSA-PKCS1-v1_5. */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/** A forge signer whose RSA operation is node:crypto's: forge hands over the SHA-256 of the TBS certificate. */
function nativeSigner(key: KeyObject): forge.pki.rsa.PrivateKey {
  const sign = (md: forge.md.MessageDigest) => {
    const digest = Buffer.from(md.digest().getBytes(), 'binary');
    return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, digest])).toString('binary');
  };
  return { sign } as unknown as forge.pki.rsa.PrivateKey;
}

function serial(): string {
  // Positive (high bit clear), random: two CAs made in one second never share a serial.
  const b = randomBytes(16);
  b[0] &= 0x7f;
  return b.toString('hex');
}

function altName(name: string): { type: number; value?: string; ip?: string } {
  return isIP(name) ? { type: 7, ip: name } : { type: 2, value: name };
}

/** A fresh CA and a server certificate for `hosts` (plus the loopback names), signed SHA-256, RSA 2048. */
export async function generateTlsIdentity(hosts: string[] = []): Promise<TlsIdentity> {
  lib ??= (await import('node-forge')).default;
  const now = Date.now();
  const notBefore = new Date(now - SKEW_MS);
  const notAfter = new Date(now + VALID_MS);
  const [ca, server] = await Promise.all([rsaPair(), rsaPair()]);
  const caName = [{ name: 'commonName', value: `baas-conform reference CA ${serial().slice(0, 8)}` }];

  const caCert = lib.pki.createCertificate();
  caCert.publicKey = ca.pub;
  caCert.serialNumber = serial();
  caCert.validity.notBefore = notBefore;
  caCert.validity.notAfter = notAfter;
  caCert.setSubject(caName);
  caCert.setIssuer(caName);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  caCert.sign(nativeSigner(ca.key), lib.md.sha256.create());

  const names = [...new Set([...hosts.filter((h) => h && h !== '0.0.0.0' && h !== '::'), ...LOOPBACK_NAMES])];
  const cert = lib.pki.createCertificate();
  cert.publicKey = server.pub;
  cert.serialNumber = serial();
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: 'commonName', value: names[0] }]);
  cert.setIssuer(caName);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map(altName) },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(nativeSigner(ca.key), lib.md.sha256.create());

  return { caPem: lib.pki.certificateToPem(caCert), certPem: lib.pki.certificateToPem(cert), keyPem: server.pem };
}

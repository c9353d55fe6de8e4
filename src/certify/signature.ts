// A detached JWS (RFC 7515 appendix F) over manifest.json: `header..signature`, Ed25519. The
// protected header carries kid (the key's thumbprint) and the manifest's sha256, so a failed check
// can tell "manifest.json changed" from "manifest.jws changed" from "another key".

import { base64url, CompactSign, compactVerify } from 'jose';
import { sha256 } from './digest.ts';
import { SIGNING_ALG, type SigningKey } from './keys.ts';

export const JWS_TYPE = 'baas-conform-manifest+jws';

// A type alias (not an interface) so it fits jose's header parameter type with its index signature.
export type ManifestHeader = {
  alg: string;
  kid?: string;
  typ?: string;
  manifest_sha256?: string;
};

/** The protected header of a manifest signature, always built the same way (verify rebuilds it to tell what changed). */
export function headerFor(kid: string, manifest: Buffer): ManifestHeader {
  return { alg: SIGNING_ALG, kid, typ: JWS_TYPE, manifest_sha256: sha256(manifest) };
}

export function encodeHeader(header: ManifestHeader): string {
  return base64url.encode(JSON.stringify(header));
}

export async function signDetached(manifest: Buffer, key: SigningKey): Promise<string> {
  const header = headerFor(key.kid, manifest);
  const jws = await new CompactSign(manifest).setProtectedHeader(header).sign(key.privateKey);
  const [h, , s] = jws.split('.');
  // verify rebuilds this header byte for byte; jose must have encoded it as encodeHeader does.
  if (h !== encodeHeader(header)) throw new Error('internal: the JWS header encoding is not canonical');
  return `${h}..${s}`;
}

/**
 * Parses the file as written (`header..signature` and one newline); undefined for anything else,
 * including non-canonical base64url (changed padding bits decode to the same bytes), so every byte
 * of the file counts.
 */
export function parseDetached(text: string): { header: ManifestHeader; h: string; s: string } | undefined {
  const m = /^([A-Za-z0-9_-]+)\.\.([A-Za-z0-9_-]+)\n$/.exec(text);
  if (!m) return undefined;
  const [, h, s] = m;
  try {
    if (base64url.encode(base64url.decode(h)) !== h || base64url.encode(base64url.decode(s)) !== s) return undefined;
    const header = JSON.parse(new TextDecoder().decode(base64url.decode(h))) as ManifestHeader;
    if (!header || typeof header !== 'object' || typeof header.alg !== 'string') return undefined;
    return { header, h, s };
  } catch {
    return undefined;
  }
}

export async function verifyDetached(parsed: { h: string; s: string }, manifest: Buffer, key: CryptoKey): Promise<boolean> {
  try {
    await compactVerify(`${parsed.h}.${base64url.encode(manifest)}.${parsed.s}`, key, { algorithms: [SIGNING_ALG] });
    return true;
  } catch {
    return false;
  }
}

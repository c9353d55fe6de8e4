// `baas-conform verify PACKAGE [--key JWK]`: the signature over manifest.json, then every file
// against its digest; a file missing, a file changed, a file added, or a signature that another key
// made is named. Without --key the package's own public key is used: that proves integrity only,
// not who signed (say so), so pass the publisher's key to prove both.

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { listFiles, sha256 } from './digest.ts';
import { PackageVerificationError, type PackageProblem } from './errors.ts';
import { loadVerifyKey } from './keys.ts';
import { MANIFEST_KIND, PACKAGE_FILES, type Manifest } from './layout.ts';
import { encodeHeader, headerFor, parseDetached, verifyDetached } from './signature.ts';
import { assertNotExpired } from './scope.ts';

export interface VerifyResult {
  dir: string;
  kid: string;
  files: number;
  /** true when --key was given (authenticity shown), false when the package's own key was used. */
  keyGiven: boolean;
  /** The certificate's scope.validUntil, when it states one. */
  validUntil?: string;
}

async function readOrUndefined(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch {
    return undefined;
  }
}

function parseManifest(bytes: Buffer): Manifest | undefined {
  try {
    const m = JSON.parse(bytes.toString('utf8')) as Manifest;
    if (m?.kind !== MANIFEST_KIND || !m.files || typeof m.files !== 'object') return undefined;
    if (!Object.values(m.files).every((d) => typeof d === 'string' && /^[0-9a-f]{64}$/.test(d))) return undefined;
    return m;
  } catch {
    return undefined;
  }
}

/** Throws PackageVerificationError naming what does not match; resolves when everything does. */
export async function verifyPackage(dir: string, opts: { keyFile?: string; now?: Date } = {}): Promise<VerifyResult> {
  const fail = (problems: PackageProblem[]): never => {
    throw new PackageVerificationError(dir, problems);
  };
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) fail([{ file: dir, problem: 'not a directory' }]);
  const manifestBytes = await readOrUndefined(path.join(dir, PACKAGE_FILES.manifest));
  if (!manifestBytes) fail([{ file: PACKAGE_FILES.manifest, problem: 'missing' }]);
  const jwsText = await readOrUndefined(path.join(dir, PACKAGE_FILES.signature));
  if (!jwsText) fail([{ file: PACKAGE_FILES.signature, problem: 'missing' }]);
  const jws = parseDetached(jwsText!.toString('utf8'));
  if (!jws) fail([{ file: PACKAGE_FILES.signature, problem: 'not a detached JWS (header..signature, canonical base64url)' }]);

  // The key: the publisher's (--key) or the package's own.
  let key: { key: CryptoKey; kid: string };
  if (opts.keyFile) key = await loadVerifyKey(opts.keyFile);
  else {
    const own = path.join(dir, PACKAGE_FILES.publicKey);
    try {
      key = await loadVerifyKey(own);
    } catch (err) {
      return fail([{ file: PACKAGE_FILES.publicKey, problem: `unusable: ${(err as Error).message.replace(`${own}: `, '')}` }]);
    }
  }

  const signedOk = await verifyDetached(jws!, manifestBytes!, key.key);
  if (!signedOk) {
    // Which file changed? Rebuild the header the signer wrote for this manifest and key: if the
    // signature verifies with it, only the header in manifest.jws was altered.
    const rebuilt = encodeHeader(headerFor(key.kid, manifestBytes!));
    if (rebuilt !== jws!.h && (await verifyDetached({ h: rebuilt, s: jws!.s }, manifestBytes!, key.key))) {
      fail([{ file: PACKAGE_FILES.signature, problem: 'its protected header was changed after signing' }]);
    }
    const header = jws!.header;
    if (header.kid === key.kid && header.manifest_sha256 !== sha256(manifestBytes!)) {
      fail([{ file: PACKAGE_FILES.manifest, problem: 'changed after signing (its sha256 differs from the one signed in manifest.jws)' }]);
    }
    if (header.kid !== key.kid) {
      const which = opts.keyFile ? `the key given (${opts.keyFile}, kid ${key.kid})` : `${PACKAGE_FILES.publicKey} (kid ${key.kid}), which was changed or replaced`;
      fail([{ file: opts.keyFile ? PACKAGE_FILES.signature : PACKAGE_FILES.publicKey, problem: `signed by key ${header.kid ?? '(no kid)'}, not by ${which}` }]);
    }
    fail([{ file: PACKAGE_FILES.signature, problem: 'the signature does not verify (changed after signing)' }]);
  }
  const manifest = parseManifest(manifestBytes!);
  if (!manifest) fail([{ file: PACKAGE_FILES.manifest, problem: `signed, but not a ${MANIFEST_KIND} document` }]);

  const problems: PackageProblem[] = [];
  for (const [file, digest] of Object.entries(manifest!.files).sort(([a], [b]) => a.localeCompare(b))) {
    // A manifest path never leaves the package.
    if (path.isAbsolute(file) || file.split('/').includes('..')) {
      problems.push({ file, problem: 'path leaves the package' });
      continue;
    }
    const bytes = await readOrUndefined(path.join(dir, file));
    if (!bytes) problems.push({ file, problem: 'missing' });
    else if (sha256(bytes) !== digest) problems.push({ file, problem: 'changed (sha256 differs from the signed manifest)' });
  }
  const listed = new Set([...Object.keys(manifest!.files), PACKAGE_FILES.manifest, PACKAGE_FILES.signature]);
  for (const f of await listFiles(dir)) if (!listed.has(f)) problems.push({ file: f, problem: 'extra file, not in the signed manifest' });
  if (problems.length) fail(problems);
  // Signed and whole: now its date. A package past scope.validUntil no longer certifies anything.
  let validUntil: string | undefined;
  if (manifest!.files[PACKAGE_FILES.certificate]) {
    let cert: { scope?: { validUntil?: unknown } };
    try {
      cert = JSON.parse((await readFile(path.join(dir, PACKAGE_FILES.certificate))).toString('utf8')) as typeof cert;
    } catch {
      return fail([{ file: PACKAGE_FILES.certificate, problem: 'signed, but not JSON' }]);
    }
    assertNotExpired(dir, cert, opts.now);
    if (typeof cert.scope?.validUntil === 'string') validUntil = cert.scope.validUntil;
  }
  return { dir, kid: key.kid, files: Object.keys(manifest!.files).length, keyGiven: !!opts.keyFile, ...(validUntil ? { validUntil } : {}) };
}

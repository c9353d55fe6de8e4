// Writing a certification package: the caller's files, the public key, manifest.json (sha256 of
// every file) and manifest.jws (detached Ed25519 JWS over manifest.json).

import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from './digest.ts';
import { CertifyOutputError } from './errors.ts';
import type { SigningKey } from './keys.ts';
import { MANIFEST_KIND, PACKAGE_FILES, PACKAGE_FORMAT_VERSION, type Manifest } from './layout.ts';
import { signDetached } from './signature.ts';

/** The output directory must be new or empty: a package never mixes with older files. */
export async function prepareOutDir(dir: string): Promise<void> {
  const s = await stat(dir).catch(() => undefined);
  if (s && !s.isDirectory()) throw new CertifyOutputError(`--out ${dir} exists and is not a directory`);
  if (s && (await readdir(dir)).length) throw new CertifyOutputError(`--out ${dir} is not empty; give a new directory (a package must hold only its own files)`);
  await mkdir(dir, { recursive: true });
}

/** Writes `files` (name -> content) plus key, manifest and signature; returns the manifest. */
export async function writePackage(dir: string, files: Record<string, Buffer | string>, key: SigningKey): Promise<Manifest> {
  const all: Record<string, Buffer> = {};
  for (const [name, content] of Object.entries(files)) all[name] = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  all[PACKAGE_FILES.publicKey] = Buffer.from(`${JSON.stringify({ ...key.publicJwk, kid: key.kid, alg: 'EdDSA', use: 'sig' }, null, 2)}\n`);
  const manifest: Manifest = { kind: MANIFEST_KIND, version: PACKAGE_FORMAT_VERSION, algorithm: 'sha256', files: {} };
  for (const name of Object.keys(all).sort()) manifest.files[name] = sha256(all[name]);
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  for (const [name, content] of Object.entries(all)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  await writeFile(path.join(dir, PACKAGE_FILES.manifest), manifestBytes);
  await writeFile(path.join(dir, PACKAGE_FILES.signature), `${await signDetached(manifestBytes, key)}\n`);
  return manifest;
}

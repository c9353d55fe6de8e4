// File names of a certification package. Everything but the manifest and its signature is listed,
// with its sha256, in manifest.json.

export const PACKAGE_FILES = {
  manifest: 'manifest.json',
  signature: 'manifest.jws',
  publicKey: 'public-key.jwk.json',
  certificate: 'certificate.json',
  profile: 'profile.json',
  results: 'results.json',
  junit: 'junit.xml',
  html: 'report.html',
  /** The run's exchanges (HAR 1.2), secrets committed (src/certify/transcript.ts). */
  transcript: 'transcript.har',
} as const;

export const MANIFEST_KIND = 'baas-conform/manifest';
export const CERTIFICATE_KIND = 'baas-conform/certificate';
export const PACKAGE_FORMAT_VERSION = 1;

export interface Manifest {
  kind: typeof MANIFEST_KIND;
  version: number;
  algorithm: 'sha256';
  /** Path inside the package -> sha256 hex. */
  files: Record<string, string>;
}

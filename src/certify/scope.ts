// What a certificate covers, stated in the certificate: the base URL judged, the spec/ it was judged
// against (digest and OpenAPI info.version), the tool version, the rule set (ids and a digest of
// spec/rules), and how long it holds (issued, valid until: certify --valid-days, default 365). verify
// refuses a package past its date, naming it (UK Open Banking certifies per base URL; Open Finance
// Brasil asks for a new certificate on every implementation update: a certificate says what it is of).

import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { packagePath } from '../package/index.ts';
import type { Model } from '../model/types.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { sha256 } from './digest.ts';
import { PackageVerificationError } from './errors.ts';
import { ConfigError } from '../errors/index.ts';

export const VALID_DAYS_DEFAULT = 365;
const DAY_MS = 86_400_000;

export interface CertificateScope {
  baseUrl: string;
  spec: { digest: string; version: string };
  tool: { name: string; version: string };
  rules: { count: number; digest: string; ids: string[] };
  issued: string;
  validUntil: string;
  validDays: number;
}

/** OpenAPI info.version of the packaged spec/openapi.yaml. */
export async function specVersion(): Promise<string> {
  const doc = parseYaml(await readFile(packagePath('spec/openapi.yaml'), 'utf8')) as { info?: { version?: unknown } };
  return String(doc?.info?.version ?? 'unknown');
}

/** The rule set: the ids the model judges, sorted, and the digest of spec/rules files as listed in the spec digest. */
export function ruleSet(model: Pick<Model, 'rules'>, specFiles: Record<string, string>): CertificateScope['rules'] {
  const ids = model.rules.map((r) => r.id as string).sort();
  const lines = Object.keys(specFiles).filter((f) => f.startsWith('rules/')).sort().map((f) => `${f} ${specFiles[f]}\n`).join('');
  return { count: ids.length, digest: sha256(lines), ids };
}

export function validDays(value: unknown): number {
  const n = value === undefined ? VALID_DAYS_DEFAULT : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 3650) throw new ConfigError(`--valid-days must be a whole number of days from 1 to 3650, got ${String(value)}`);
  return n;
}

export function scopeOf(o: { baseUrl: string; specDigest: string; specVersion: string; rules: CertificateScope['rules']; issued: Date; validDays: number }): CertificateScope {
  return {
    baseUrl: o.baseUrl,
    spec: { digest: o.specDigest, version: o.specVersion },
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    rules: o.rules,
    issued: o.issued.toISOString(),
    validUntil: new Date(o.issued.getTime() + o.validDays * DAY_MS).toISOString(),
    validDays: o.validDays,
  };
}

/** Throws naming the date when `now` is past the certificate's validUntil. */
export function assertNotExpired(dir: string, certificate: { scope?: { validUntil?: unknown } }, now = new Date()): void {
  const until = certificate.scope?.validUntil;
  if (typeof until !== 'string') return;
  const t = Date.parse(until);
  if (!Number.isFinite(t) || now.getTime() > t) {
    throw new PackageVerificationError(dir, [{ file: 'certificate.json', problem: `expired on ${until} (scope.validUntil); certify the target again for a current package` }]);
  }
}

// Typed errors of certify/verify. A bad key file is a usage error (exit 2); a package that does not
// verify, or a run that does not qualify for a certificate, is a finding (exit 1).

import { BaasConformError } from './base.ts';

/** `certify --out DIR` cannot write there (not empty, not a directory). */
export class CertifyOutputError extends BaasConformError {
  constructor(message: string) {
    super('BAAS_CERT_OUTPUT_INVALID', message, 2);
  }
}

export interface PackageProblem {
  /** Path inside the package (or the key file) that does not match. */
  file: string;
  problem: string;
}

/** `verify`: the package does not match its signed manifest. Names every file that does not match. */
export class PackageVerificationError extends BaasConformError {
  readonly problems: PackageProblem[];
  constructor(dir: string, problems: PackageProblem[]) {
    super('BAAS_PACKAGE_INVALID', `${dir} does not verify: ${problems.map((p) => `${p.file}: ${p.problem}`).join('; ')}`, 1);
    this.problems = problems;
  }
}

/** The run does not qualify: a check failed, was blocked, or a testable rule was not exercised. */
export class CertificationRefusedError extends BaasConformError {
  readonly reasons: string[];
  constructor(reasons: string[]) {
    super('BAAS_CERTIFICATION_REFUSED', `no certificate written: ${reasons.join('; ')}`, 1);
    this.reasons = reasons;
  }
}

// The certify/verify errors live with every other typed error in src/errors.
export { CertifyKeyError, CertifyOutputError, PackageVerificationError, CertificationRefusedError, type PackageProblem } from '../errors/index.ts';

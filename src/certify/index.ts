// Certification: a signed package of one full, passing run (certify), and its verification (verify).
export { certify, unexercisedRules, type CertifyOptions, type CertifyResult } from './certify.ts';
export { verifyPackage, type VerifyResult } from './verify.ts';
export { generateSigningKey, loadSigningKey, loadVerifyKey, publicOf, thumbprint, type SigningKey } from './keys.ts';
export { PACKAGE_FILES, MANIFEST_KIND, CERTIFICATE_KIND, type Manifest } from './layout.ts';
export { redactedProfileJson } from './redact.ts';
export { CertificationRefusedError, CertifyKeyError, CertifyOutputError, PackageVerificationError, type PackageProblem } from './errors.ts';

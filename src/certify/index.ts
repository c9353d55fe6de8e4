// Certification: a signed package of one full, passing run (certify), and its verification (verify).
export { certify, unexercisedRules, type CertifyOptions, type CertifyResult } from './certify.ts';
export { verifyPackage, type VerifyResult } from './verify.ts';
export { generateSigningKey, loadSigningKey, loadVerifyKey, publicOf, thumbprint, type SigningKey } from './keys.ts';
export { PACKAGE_FILES, MANIFEST_KIND, CERTIFICATE_KIND, type Manifest } from './layout.ts';
export { redactedProfileJson } from './redact.ts';
export { CertificationRefusedError, CertifyKeyError, CertifyOutputError, PackageVerificationError, type PackageProblem } from './errors.ts';
export { rejudgePackage, type RejudgeReport, type RejudgedVerdict, type RejudgeOptions } from './rejudge.ts';
export { notRejudgeable, type NotRejudgeable } from './rejudgeable.ts';
export { Committer, commitmentOf, opens, COMMITMENT, SALTS_KIND, type CommitKind, type SaltsFile } from './commit.ts';
export { VALID_DAYS_DEFAULT } from './scope.ts';

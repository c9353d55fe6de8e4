// The certify mode's entry: a certification package from a conformance run (certify), and its check
// (verifyPackage, `baas-conform verify`). src/certify holds the package format; the run is runConformance.
export { certify, verifyPackage, rejudgePackage, type CertifyOptions, type CertifyResult, type VerifyResult, type RejudgeReport } from '../certify/index.ts';
// Disclosing one committed value (verify --reveal): the salts file, and the check of a value against its commitment.
export { readSalts, reveal } from '../certify/reveal.ts';

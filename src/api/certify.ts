// The certify mode's entry: a certification package from a conformance run (certify), and its check
// (verifyPackage, `baas-conform verify`). src/certify holds the package format; the run is runConformance.
export { certify, verifyPackage, type CertifyOptions, type CertifyResult, type VerifyResult } from '../certify/index.ts';

// The mutant bank and the selftest: public surface of src/mutants.
export { ALL_SETS, areaNames, bankDigest, buildMutantBank, inArea, MUTANT_BANK, PENDING_AREAS, PENDING_BANK, selectVariants, VARIANT_FILES, variantsById, type BankSet } from './registry.ts';
export { mutationCoverage, NO_VARIANT_REASONS, unusedFaultPoints, type RuleMutants } from './mutation-coverage.ts';
export { auditTotalsLine, formatSpecAudit, LOOSE_BUDGET, specAudit, type AuditEvidence, type AuditRow, type AuditTotals, type SelftestEvidence, type SpecAudit, type Strength } from './spec-audit.ts';
export { selftestEvidence } from './selftest-evidence.ts';
export { brokenRules, describeVariant, type MutantVariant, type RuleId, type VariantKind, type VariantSpec } from './variant.ts';
export { qualifySelftest, SELFTEST_BOUNDS, type QualifiedSelftest, type SelftestValues } from './options.ts';
export { runSelftest, SELFTEST_DEFAULTS, BASELINE_ID, type SelftestProfile, type FailingCheck, type FalsePositive, type SelftestOptions, type SelftestProgress, type SelftestResult, type VariantOutcome } from './selftest.ts';
export { HOSTILE_KINDS, startHostileTarget, type HostileKind, type HostileTarget } from './hostile.ts';

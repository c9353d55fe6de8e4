// The programmatic entry points that the CLI commands themselves call: one per mode, and the target choice.
export { runConformance, type ConformanceOptions, type ConformanceResult } from './conformance.ts';
export { conformanceEvents, type ConformanceEvents } from './events.ts';
export { resolveTarget, type Target, type TargetInput } from './target.ts';
export {
  runLoadMode, mergeLoadResults, coordinate, coordinatedShardRunner, renderLoad, writeLoadOutputs, runLoad, qualifyLoadFlags, qualifyLoadRun,
  LOAD_SCENARIO_IDS, LOAD_BOUNDS, LOAD_DEFAULTS, LOAD_LIMITS,
  type LoadModeOptions, type LoadModeResult, type LoadOutputs, type LoadFlagValues, type LoadKnobs, type QualifiedLoad, type LoadOptions, type LoadResult,
} from './load.ts';
export {
  runAuditMode, renderAudit, qualifyAudit, AUDIT_BOUNDS, AUDIT_DEFAULTS, PCI_AUTH_MODES, DEFAULT_MIN_EXERCISED,
  type AuditModeOptions, type AuditModeResult, type AuditFlagValues, type QualifiedAudit,
} from './audit.ts';
export { runCompareMode, renderCompare, compareTargets, COMPARE_FILES, type CompareModeOptions, type CompareModeResult, type CompareOptions, type CompareResult } from './compare.ts';
export {
  runSelftest, chooseVariants, listSelftest, selftestProfile, runClientBank, clientBankExit, clientModes, formatClientBank, writeJsonFile, writeSelftestReportFiles, areaNames,
  SELFTEST_DEFAULTS, SELFTEST_BOUNDS, qualifySelftest, CLIENT_AREA, CLIENT_PREFIX, CLIENT_BANK_MAX_CONCURRENCY,
  type MutantVariant, type SelftestOptions, type SelftestProfile, type SelftestProgress, type SelftestResult, type ClientBankRow,
} from './selftest.ts';
export { certify, verifyPackage, rejudgePackage, readSalts, reveal, type CertifyOptions, type CertifyResult, type VerifyResult, type RejudgeReport } from './certify.ts';
export { appendToHistory, buildHistory, classifyFlakes, CLASSIFY_DEFAULTS, flakeCandidates, formatHistory, HISTORY_DEFAULTS, loadRuns, targetReplay, writeHistory } from './history.ts';
export { DEFAULT_RATE_LIMIT, generateTlsIdentity, startReference, type RateLimitOptions, type ReferenceOptions, type ReferenceServer, type ReferenceTls } from './serve.ts';
export { comparableOf, diffRuns, formatDiff, hasRegressions, loadResults } from './diff.ts';
export { diagnoseTarget, renderDoctor, formatDoctor, type DiagnoseOptions, type DoctorReport } from './doctor.ts';
export { replayHarMode, replayFileKind, readResultsFile, type HarReplayModeOptions, type ReplayOutcome, type ResultsDoc } from './replay.ts';
export { diffSpecs, renderSpecDiff, type SpecDiffModeOptions, type SpecDiffModeResult } from './spec-diff.ts';
export { ruleCatalogueMode, type RulesModeOptions } from './rules.ts';

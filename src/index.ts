// Library API of baas-conform (`import { runConformance } from 'baas-conform'`). The CLI commands
// call these same functions; everything here is part of the package's public surface.
// API types for implementers of the Partner API are a separate entry: `baas-conform/types`.

export { runConformance, conformanceEvents, type ConformanceOptions, type ConformanceResult, type ConformanceEvents } from './api/index.ts';
// One entry per mode, the same functions the CLI commands call (src/api), and the one target choice.
export { resolveTarget, type Target, type TargetInput } from './api/index.ts';
export {
  runLoadMode, mergeLoadResults, renderLoad, qualifyLoadFlags, qualifyLoadRun, LOAD_SCENARIO_IDS, LOAD_BOUNDS, LOAD_DEFAULTS, LOAD_LIMITS,
  type LoadModeOptions, type LoadModeResult, type LoadOutputs, type LoadFlagValues, type LoadKnobs, type QualifiedLoad,
} from './api/index.ts';
export { runAuditMode, renderAudit, qualifyAudit, AUDIT_BOUNDS, AUDIT_DEFAULTS, type AuditModeOptions, type AuditModeResult, type AuditFlagValues, type QualifiedAudit } from './api/index.ts';
export { runCompareMode, renderCompare, compareTargets, COMPARE_FILES, type CompareModeOptions, type CompareModeResult, type CompareOptions, type CompareResult } from './api/index.ts';
export { runSelftest, chooseVariants, listSelftest, runClientBank, SELFTEST_DEFAULTS, type SelftestOptions, type SelftestResult, type ClientBankRow } from './api/index.ts';
export { loadModel, DEFAULT_SPEC_DIR } from './model/index.ts';
export type { Model, Rule, ErrorRule, Operation, Category } from './model/index.ts';
export { startReference, type ReferenceOptions, type ReferenceServer } from './reference/index.ts';
export { runLoad, mergeResults, SCENARIOS, coordinate, startCoordinator, runCoordinatedShard, type LoadOptions, type LoadResult, type Thresholds, type CoordinateOptions, type CoordinatedRun, type Coordinator, type ShardLink } from './load/index.ts';
export { loadProfile, resolveProfile, maskSecrets, type TargetProfile, type ResolvedProfile, type ProfileOverrides } from './profile/index.ts';
export { createReporters, ConsoleReporter, JsonReporter, JunitReporter, HtmlReporter, type ReporterSelection, type ConsoleReporterOptions } from './report/index.ts';
export type { RunEvent, Reporter, CheckResult, CheckFailureInfo, Exchange, RuleVerdict, RunSummary, Verdict } from './events/index.ts';
export type { Check } from './checks/types.ts';
export { loadChecks } from '../suites/index.ts';
export { RUN_DEFAULTS, type RunOutcome, type Shard } from './runner/index.ts';
export {
  BaasConformError, ConfigError, TargetUnreachableError, CredentialsError, ServiceRegistrationError, CancelledError,
  InputFileError, ModelError, SchemaViolationError, PlanError, AuditPlanError, ControlAdapterError, ResultsFileError, ExpectedFailuresError,
  CertifyKeyError, CertifyOutputError, PackageVerificationError, CertificationRefusedError, TransportError, CoordinatorProtocolError, CoordinatorRefusedError,
  type InputLocation, type PackageProblem, type TransportErrorCode,
  EXIT_CODES, type Conclusion,
} from './errors/index.ts';
export { TOOL_NAME, TOOL_VERSION } from './runner/version.ts';
export { PACKAGE_ROOT } from './package/index.ts';
export { diffRuns, formatDiff, loadResults, parseExpectedFailures, applyExpectedFailures, decideExit, type ResultsDoc, type ExpectedFailures } from './baseline/index.ts';
export { certify, verifyPackage, type CertifyOptions, type CertifyResult, type VerifyResult } from './certify/index.ts';
export { startAudit, DEFAULT_PLAN as DEFAULT_AUDIT_PLAN, DEFAULT_MIN_EXERCISED, readAuditPlan, writeAuditReports, type Audit, type AuditOptions, type AuditPlan, type AuditProfile, type AuditVerdict, type RuleOutcome as AuditRuleOutcome } from './audit/index.ts';
// The sample partner client the audit is proved on (examples/clients runs it as a program and as a test).
export { runPartnerFlow as runSampleClient, startReceiver as startSampleReceiver, isClientMode as isSampleClientMode, type FlowOptions as SampleClientOptions } from './audit/bank/index.ts';
export type { ControlHttp, ControlHttpRequest, ControlInput, ControlModule, ControlModuleOperation, ControlModuleTools } from './control/index.ts';

// Every typed error of the toolkit, in one place: each has a stable `code`, an exit code (2 usage or
// input, 3 target unreachable, 1 a finding; exit.ts: every exit code, 4 inconclusive) and a message that says what to do. src/index.ts exports them all.
export { BaasConformError, ConfigError, TargetUnreachableError, CredentialsError, ServiceRegistrationError, CancelledError } from './base.ts';
export { InputFileError, ModelError, SchemaViolationError, PlanError, AuditPlanError, ControlAdapterError, ResultsFileError, ExpectedFailuresError, CertifyKeyError, type InputLocation } from './input.ts';
export { CertifyOutputError, PackageVerificationError, CertificationRefusedError, type PackageProblem } from './certify.ts';
export { TransportError, type TransportErrorCode } from './transport.ts';
export { describeSchemaProblem } from './schema-problem.ts';
export { CoordinatorProtocolError, CoordinatorRefusedError } from './coordinator.ts';
export { EXIT_CODES, conclude, exitCodeOf, inconclusive, type Conclusion } from './exit.ts';

// spec-diff: the changes between two spec/ directories, classed (rules, error rows, operations and
// their fields, control operations, webhooks; breaking or not), the checks and rules each touches (the
// shared map of src/reach), and a certification package's verdicts it invalidates or carries over.
export { specDiff, specFiles, type Change, type FileChange, type NamedChange, type OperationChange, type OperationPart, type RuleChange, type SpecDiff } from './diff.ts';
export { diffFields, schemaFields, type Direction, type FieldChange, type FieldShape } from './fields.ts';
export { impactOf, type ChangeImpact, type CheckInfo, type Impact } from './impact.ts';
export { packageImpact, readPackage, rerunCommand, type PackageImpact, type PackageVerdicts } from './package.ts';
export { formatSpecDiff } from './format.ts';

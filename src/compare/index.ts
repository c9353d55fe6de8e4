// Differential runs (`baas-conform compare`): the same seeded checks against two targets, their rule
// verdicts and their answers side by side, each difference placed by the model: where the spec
// specifies, or where it is silent.
export { compareTargets, type CompareOptions } from './compare.ts';
export { formatCompare } from './console.ts';
export { buildCompareHtml } from './html.ts';
export { volatileMatcher } from './volatile.ts';
export { COMPARE_KIND, COMPARE_LIMITS, type CompareResult, type CompareTarget, type StepDifference, type RuleVerdictDifference, type CheckVerdictDifference, type UnpairedStep, type DifferenceKind, type Side } from './types.ts';

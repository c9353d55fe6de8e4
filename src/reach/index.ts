// Which checks judge what: the rules each check covers, the operations each rule governs (from the
// model), and the operations each check reached in a run. Shared by `rules --audit` and `spec-diff`.
// The run on the embedded reference (measure.ts) is imported from its own file: it loads the engine.
export { governedOperations, requiresChainHeader, rowFamilyOf, ROW_FAMILY_APPLIES, type RowFamily } from './governed.ts';
export { checksByRule, checksOfRules, rulesByOperation, type CheckRules } from './map.ts';
export { harRequests, operationMatcher, reachByCheck, type ProfilePaths, type ReachedRequest } from './exchanges.ts';
export { runEvidence, type RuleEvidence, type RunEvidence } from './evidence.ts';
export { minimalProfile } from './minimal.ts';

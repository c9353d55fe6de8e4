// Load scenarios for performance engineers: `baas-conform load <scenario>` and `load merge`.
export { runLoad, recoveryProbe, check429, category429, timeoutBudgetMs, CLOSED_LOOP_NOTE, type LoadOptions } from './run.ts';
export { SCENARIOS, scenarioById, type Scenario, type PreparedScenario, type LoadRequest } from './scenarios.ts';
export { mergeResults, readResultFile } from './merge.ts';
export { renderResult, writeResult } from './report.ts';
export { evaluate, errorRate } from './verdict.ts';
export { assertTargetAllowed, isLoopbackHost, LOAD_LIMITS } from './safety.ts';
export { decodeHistogram, encodeHistogram, newHistogram, summarise } from './histogram.ts';
export * from './types.ts';

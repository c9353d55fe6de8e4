// Load scenarios for performance engineers: `baas-conform load <scenario>`, `load --plan`, `load merge`.
export { runLoad, recoveryProbe, check429, category429, timeoutBudgetMs, CLOSED_LOOP_NOTE, OPEN_MODEL_NOTE, type LoadOptions } from './run.ts';
export { LOAD_CONTRACTS, isLoadContractId, type LoadContract, type LoadContractId, type ContractAnswer } from './contract.ts';
export { runEngine, type EngineOptions, type EngineRun, type Progress } from './engine.ts';
export { arrivalTimes, constantShape, type Shape, type Stage } from './schedule.ts';
export { SCENARIOS, scenarioById, type Scenario, type PreparedScenario, type LoadRequest } from './scenarios.ts';
export { mergeResults, readResultFile } from './merge.ts';
export { renderResult, writeResult } from './report.ts';
export { evaluate, errorRate } from './verdict.ts';
export { assertTargetAllowed, isLoopbackHost, LOAD_LIMITS } from './safety.ts';
export { decodeHistogram, encodeHistogram, newHistogram, summarise } from './histogram.ts';
export * from './types.ts';
export { LoadJudge } from './judge.ts';
export { loadMetrics, serveMetrics, type LoadMetrics, type MetricsServer } from './metrics.ts';
export { coordinate, startCoordinator, coordinatedShardRunner, runCoordinatedShard, planDigest, COORDINATOR_LIMITS, type CoordinateOptions, type CoordinatedRun, type Coordinator, type ShardLink } from './coordinator/index.ts';

// History across nights (`baas-conform history`, `run --history DIR`): results.json files of one target
// in run order, per rule and per check timelines, what changed against the previous run and the last N,
// flapping rules (a toolkit bug when the target is the reference), history.json and history.html.
export { loadRuns, isReferenceRun, type LoadedRun } from './load.ts';
export { buildHistory, type HistoryOptions } from './timeline.ts';
export { formatHistory } from './console.ts';
export { buildHistoryHtml } from './html.ts';
export { appendToHistory, writeHistory, type HistoryFiles } from './store.ts';
export { HISTORY_DEFAULTS, HISTORY_KIND, HISTORY_VERSION, type Change, type HistoryDoc, type HistoryRun, type Timeline, type Verdict } from './types.ts';
export { classifyFlakes, flakeCandidates, CLASSIFY_DEFAULTS, type FlakeCase, type FlakeClass, type FlakeCandidate, type ReplayCheck } from './classify.ts';
export { targetReplay, type ReplayTarget } from './replay-target.ts';

// The history mode's entry (`baas-conform history`, and `run`'s record of each outcome): the run store,
// the trend page and the flake classification of src/history.
export { appendToHistory, buildHistory, classifyFlakes, CLASSIFY_DEFAULTS, flakeCandidates, formatHistory, HISTORY_DEFAULTS, loadRuns, targetReplay, writeHistory } from '../history/index.ts';

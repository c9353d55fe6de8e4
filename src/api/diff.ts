// The diff mode's entry (`baas-conform diff a.json b.json`): two result files, compared rule by rule
// and check by check (src/baseline).
export { comparableOf, diffRuns, formatDiff, hasRegressions, loadResults } from '../baseline/index.ts';

// Nightly CI: diff two runs, expected failures that cannot rot, and the exit decision.
export { diffRuns, formatDiff, hasRegressions, type ComparableRun } from './diff.ts';
export { applyExpectedFailures, loadExpectedFailures, parseExpectedFailures, utcDay, type ExpectedFailures } from './expected.ts';
export { decideExit, judgedNothing, type ExitInput, type RunExit } from './exit.ts';
export { comparableOf, loadResults, parseResults, RESULTS_KIND, RESULTS_VERSION, type ResultsDoc } from './results-file.ts';
export { ResultsFileError, ExpectedFailuresError } from './errors.ts';
export { validatorFor, SCHEMA_FILES } from './schemas.ts';

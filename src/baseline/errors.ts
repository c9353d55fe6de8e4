// The nightly-CI input errors live with every other typed error in src/errors.
export { ResultsFileError, ExpectedFailuresError } from '../errors/index.ts';

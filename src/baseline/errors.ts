// Typed errors of the nightly-CI inputs (results files, expected-failures lists): stable codes, exit 2
// (the input is wrong, not the target), and a message that names the file and what to fix.

import { BaasConformError } from '../errors/index.ts';

/** A results.json given to diff / --baseline is unreadable, not ours, or of a format version we do not know. */
export class ResultsFileError extends BaasConformError {
  readonly file: string;
  constructor(file: string, problem: string) {
    super('BAAS_RESULTS_INVALID', `${file}: ${problem}`, 2);
    this.file = file;
  }
}

/** The --expected-failures file is unreadable or malformed. */
export class ExpectedFailuresError extends BaasConformError {
  readonly file: string;
  constructor(file: string, problem: string) {
    super('BAAS_EXPECTED_FAILURES_INVALID', `${file}: ${problem}`, 2);
    this.file = file;
  }
}

// Reading a results.json (for diff and --baseline): checked for kind and version first, so an old or
// foreign file gets a message saying what it is, then against spec/schemas/results.schema.json.

import type { ComparableRun } from './diff.ts';
import { ResultsFileError } from './errors.ts';
import { readInputFile } from '../input/index.ts';
import { describeErrors, SCHEMA_FILES, validatorFor } from './schemas.ts';

export const RESULTS_KIND = 'baas-conform/results';
export const RESULTS_VERSION = 1;

/** What diff needs of a results document (a subset of the schema). */
export interface ResultsDoc {
  kind: typeof RESULTS_KIND;
  version: number;
  runId?: string;
  seed?: number;
  started?: string;
  tool?: { name: string; version: string };
  checks: { checkId: string; verdict: string; reason?: string; failure?: { message: string }; blocked?: { operation: string; message: string } }[];
  rules: { id: string; verdict: string; reason?: string }[];
  [key: string]: unknown;
}

/** Validates a parsed document; `file` names it in errors. */
export function parseResults(value: unknown, file: string): ResultsDoc {
  const doc = value as Partial<ResultsDoc> | null;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new ResultsFileError(file, 'is not a JSON object; give a results.json written by `baas-conform run`');
  if (doc.kind !== RESULTS_KIND) {
    throw new ResultsFileError(file, `kind is ${JSON.stringify(doc.kind)}, expected "${RESULTS_KIND}": give a results.json written by \`baas-conform run\` (files from before format version 1 have no kind; re-run to get one)`);
  }
  if (doc.version !== RESULTS_VERSION) {
    throw new ResultsFileError(file, `results format version ${JSON.stringify(doc.version)} is not supported by this baas-conform (it reads version ${RESULTS_VERSION}); use the baas-conform version that wrote it`);
  }
  const validate = validatorFor(SCHEMA_FILES.results);
  if (!validate(doc)) throw new ResultsFileError(file, `does not match spec/schemas/results.schema.json: ${describeErrors(validate.errors)}`);
  return doc as ResultsDoc;
}

export async function loadResults(path: string): Promise<ResultsDoc> {
  const doc = await readInputFile(path, { what: 'results file', format: 'json', error: (f, _pointer, problem) => new ResultsFileError(f, problem) });
  return parseResults(doc.value, path);
}

/** The parts of a results document a diff compares. */
export function comparableOf(doc: ResultsDoc): ComparableRun {
  return { runId: doc.runId, seed: doc.seed, started: doc.started, toolVersion: doc.tool?.version, checks: doc.checks, rules: doc.rules };
}

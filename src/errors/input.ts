// Errors of the files a user hands the tool (profile, config, load plan, audit plan, control adapter,
// results.json, expected-failures list): each names the file, the line and the JSON pointer of the bad
// value where known, and says what to fix. Exit 2: the input is wrong, not the target.
import { ConfigError } from './base.ts';

export interface InputLocation {
  file: string;
  /** JSON pointer of the bad value ('' for the whole document). */
  pointer?: string;
  /** 1-based line of the value in the file, when the file could be parsed far enough to say. */
  line?: number;
}

const where = (l: InputLocation) => `${l.file}${l.line !== undefined ? `:${l.line}` : ''}${l.pointer !== undefined ? ` at ${l.pointer || '/'}` : ''}`;

/** An input file that cannot be read, parsed or accepted. `what` names the kind ("load plan"). */
export class InputFileError extends ConfigError {
  readonly file: string;
  readonly pointer?: string;
  line?: number;
  readonly problem: string;
  readonly what: string;
  constructor(what: string, location: InputLocation, problem: string, code = 'BAAS_INPUT_INVALID') {
    super(`${what ? `${what} ` : ''}${where(location)}: ${problem}`, code);
    this.what = what;
    this.file = location.file;
    if (location.pointer !== undefined) this.pointer = location.pointer;
    if (location.line !== undefined) this.line = location.line;
    this.problem = problem;
  }

  /** Adds the line once the reader knows it (errors raised from the parsed value know only the pointer). */
  atLine(line: number | undefined): this {
    if (line === undefined || this.line !== undefined) return this;
    this.line = line;
    this.message = `${this.what ? `${this.what} ` : ''}${where(this)}: ${this.problem}`;
    return this;
  }
}

/** A model file (spec/openapi.yaml, spec/rules/*.yaml, spec/control.yaml) is malformed. */
export class ModelError extends InputFileError {
  declare readonly pointer: string;
  constructor(file: string, pointer: string, problem: string, line?: number) {
    super('', { file, pointer, line }, problem, 'BAAS_MODEL_INVALID');
  }
}

/** --key names a file that is not an Ed25519 JWK of the kind needed. */
export class CertifyKeyError extends InputFileError {
  constructor(file: string, problem: string) {
    super('', { file }, problem, 'BAAS_CERT_KEY_INVALID');
  }
}

/** A value the schema refuses, before the file is known (validateOrThrow); readers add file and line. */
export class SchemaViolationError extends ConfigError {
  readonly pointer: string;
  constructor(message: string, pointer: string) {
    super(message, 'BAAS_INPUT_INVALID');
    this.pointer = pointer;
  }
}

/** A load plan the schema or the model refuses. */
export class PlanError extends InputFileError {
  declare readonly pointer: string;
  constructor(file: string, pointer: string, problem: string, line?: number) {
    super('load plan', { file, pointer, line }, problem, 'BAAS_LOAD_PLAN_INVALID');
  }
}

/** An audit fault plan the schema refuses. */
export class AuditPlanError extends InputFileError {
  declare readonly pointer: string;
  constructor(file: string, pointer: string, problem: string, line?: number) {
    super('audit plan', { file, pointer, line }, problem, 'BAAS_AUDIT_PLAN_INVALID');
  }
}

/** A control adapter file is malformed. */
export class ControlAdapterError extends InputFileError {
  declare readonly pointer: string;
  constructor(file: string, pointer: string, problem: string, line?: number) {
    super('control adapter', { file, pointer, line }, problem, 'BAAS_CONTROL_ADAPTER_INVALID');
  }
}

/** A results.json given to diff / --baseline is unreadable, not ours, or of a format version we do not know. */
export class ResultsFileError extends InputFileError {
  constructor(file: string, problem: string) {
    super('', { file }, problem, 'BAAS_RESULTS_INVALID');
  }
}

/** The --expected-failures file is unreadable or malformed. */
export class ExpectedFailuresError extends InputFileError {
  constructor(file: string, problem: string) {
    super('', { file }, problem, 'BAAS_EXPECTED_FAILURES_INVALID');
  }
}

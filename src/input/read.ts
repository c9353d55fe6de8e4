// readInputFile: the one reader of the files a user hands the tool (profile, config, load plan, audit
// plan, control adapter, results.json, expected-failures list). It reads JSON or YAML, keeps the
// positions, and words every problem alike: the file, the line, the JSON pointer of the bad value.
import { readFile } from 'node:fs/promises';
import type { Document, LineCounter } from 'yaml';
import { InputFileError, SchemaViolationError } from '../errors/index.ts';
import { yamlLib } from './yaml.ts';

export interface InputFileOptions {
  /** What the file is, for messages: "profile", "config file", "load plan". */
  what: string;
  /** json: JSON.parse semantics; yaml: YAML 1.2 (JSON is YAML too). Default: by the file name, else json. */
  format?: 'json' | 'yaml';
  /** Name shown in messages (default: the path). */
  displayName?: string;
  /** Builds the error a caller's own type stands for (PlanError, AuditPlanError ...); default InputFileError. */
  error?: (file: string, pointer: string | undefined, problem: string, line: number | undefined) => InputFileError;
}

export interface InputDocument {
  file: string;
  value: unknown;
  /** 1-based line of the value at a JSON pointer (of its nearest existing parent when absent). */
  lineOf(pointer: string): number | undefined;
  /** The error for a bad value at `pointer`, naming file and line. */
  problem(pointer: string, problem: string): InputFileError;
  /** Adds the line to an error about this file that names only a pointer (a SchemaViolationError from validateOrThrow, or an InputFileError); others pass unchanged. */
  locate(err: unknown): unknown;
}

const isYamlName = (f: string) => /\.ya?ml$/i.test(f);

function pointerPath(pointer: string): string[] {
  return pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Line of a JSON.parse error (Node 20 says "at position N", newer ones "(line L column C)"). */
function jsonErrorLine(text: string, message: string): number | undefined {
  const line = /line (\d+)/.exec(message);
  if (line) return Number(line[1]);
  const pos = /position (\d+)/.exec(message);
  return pos ? text.slice(0, Number(pos[1])).split('\n').length : undefined;
}

export async function readInputFile(file: string, opts: InputFileOptions): Promise<InputDocument> {
  const name = opts.displayName ?? file;
  const make = opts.error ?? ((f, pointer, problem, line) => new InputFileError(opts.what, { file: f, pointer, line }, problem));
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw make(name, undefined, `cannot read the file (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (code ?? String(err))}); check the path`, undefined);
  }
  const yamlFormat = (opts.format ?? (isYamlName(file) ? 'yaml' : 'json')) === 'yaml';
  let lineCounter: LineCounter | undefined;
  let doc: Document | undefined;
  // Parsed as YAML only when needed: a JSON file's lines are found only for a problem in it.
  const parsed = (): Document => {
    if (doc) return doc;
    const yaml = yamlLib();
    lineCounter = new yaml.LineCounter();
    return (doc = yaml.parseDocument(text, { lineCounter, uniqueKeys: true }));
  };
  let value: unknown;
  if (yamlFormat) {
    const d = parsed();
    if (d.errors.length) {
      const e = d.errors[0];
      throw make(name, undefined, `invalid YAML: ${e.message.split('\n')[0]}; fix the syntax there`, e.linePos?.[0]?.line);
    }
    value = d.toJS({ maxAliasCount: 100 });
  } else {
    try {
      value = JSON.parse(text);
    } catch (err) {
      const message = (err as Error).message;
      const yamlLine = () => parsed().errors[0]?.linePos?.[0]?.line;
      throw make(name, undefined, `not valid JSON: ${message}; fix the syntax there`, jsonErrorLine(text, message) ?? yamlLine());
    }
  }
  const lineOf = (pointer: string): number | undefined => {
    const d = parsed();
    if (d.errors.length) return undefined;
    const path = pointerPath(pointer);
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? d.contents : d.getIn(path.slice(0, n), true);
      if (yamlLib().isNode(node) && node.range && lineCounter) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
  const problem = (pointer: string, text: string) => make(name, pointer, text, lineOf(pointer));
  return {
    file,
    value,
    lineOf,
    problem,
    locate: (err) => {
      if (err instanceof SchemaViolationError) return problem(err.pointer, err.message);
      if (err instanceof InputFileError && err.file === name && err.pointer !== undefined) return err.atLine(lineOf(err.pointer));
      return err;
    },
  };
}

// The one place Ajv is configured. Every JSON Schema this tool checks a value against (the model's
// rule files and answers, the profile, the config file, load and audit plans, result files, the
// control adapter, control answers) is compiled here, by an instance made once per flavour, and each
// schema is compiled once and kept.
//
// A flavour is the JSON Schema draft (read from the schema's own $schema: 2020-12, else draft-07, the
// draft of the schemas that name none), whether every problem is collected, and whether `format` is
// checked. All are lenient about unknown keywords (strict: false): the schemas carry OpenAPI and
// documentation keywords that are not JSON Schema vocabulary.

import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its function is the module itself or its default export, by loader.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => unknown;

export interface Flavour {
  draft: '07' | '2020';
  /** Collect every problem (a report lists several) instead of stopping at the first. */
  allErrors: boolean;
  /**
   * Check `format` (date-time, uri ...). Off only for answers of a vendor's sandbox (control answers):
   * their shape is judged, not the spelling of a URL the spec does not define.
   */
  formats: boolean;
}

/** An Ajv instance of `flavour` with this tool's settings. Shared ones come from sharedAjv(); a model makes its own (see newModelAjv). */
export function createAjv(flavour: Flavour): Ajv {
  const options: Options = { allErrors: flavour.allErrors, strict: false, validateFormats: flavour.formats, logger: false };
  const ajv = flavour.draft === '2020' ? new Ajv2020(options) : new Ajv(options);
  if (flavour.formats) addFormats(ajv);
  return ajv;
}

const instances = new Map<string, Ajv>();

/** The process's instance of `flavour`, made on first use. */
export function sharedAjv(flavour: Flavour): Ajv {
  const key = `${flavour.draft}|${flavour.allErrors}|${flavour.formats}`;
  let ajv = instances.get(key);
  if (!ajv) instances.set(key, (ajv = createAjv(flavour)));
  return ajv;
}

/** The draft a schema declares: 2020-12 when its $schema says so, else draft-07. */
export function draftOf(schema: object): Flavour['draft'] {
  const declared = (schema as { $schema?: unknown }).$schema;
  return typeof declared === 'string' && declared.includes('2020-12') ? '2020' : '07';
}

const compiled = new Map<string, WeakMap<object, ValidateFunction>>();

/**
 * `schema` compiled once per flavour (the same object is never compiled twice). A schema with an $id
 * the instance already holds is that one: the tool's schema files are read once per process, and
 * Ajv refuses a second schema under the same $id.
 */
export function compileSchema<T = unknown>(schema: object, opts: { allErrors?: boolean; formats?: boolean } = {}): ValidateFunction<T> {
  const flavour: Flavour = { draft: draftOf(schema), allErrors: opts.allErrors ?? false, formats: opts.formats ?? true };
  const key = `${flavour.draft}|${flavour.allErrors}|${flavour.formats}`;
  let cache = compiled.get(key);
  if (!cache) compiled.set(key, (cache = new WeakMap()));
  const hit = cache.get(schema);
  if (hit) return hit as ValidateFunction<T>;
  const ajv = sharedAjv(flavour);
  const id = (schema as { $id?: unknown }).$id;
  const validate = (typeof id === 'string' ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema);
  cache.set(schema, validate);
  return validate as ValidateFunction<T>;
}

// JSON Schema validation: Ajv configured once (ajv.ts), schemas compiled once and kept, and the
// schema files that ship with the tool (files.ts).
export { compileSchema, createAjv, draftOf, sharedAjv, type Flavour } from './ajv.ts';
export { schemaFileValidator, schemaPath } from './files.ts';

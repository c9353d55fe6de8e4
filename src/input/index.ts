export { readInputFile, type InputDocument, type InputFileOptions } from './read.ts';
export { yamlLib } from './yaml.ts';

export { readInputFile, type InputDocument, type InputFileOptions } from './read.ts';

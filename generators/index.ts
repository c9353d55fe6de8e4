// `npm run generate`: regenerates everything derived from spec/ — TypeScript types (src/generated,
// generators/types.ts), the id unions (src/generated/ids.ts, generators/ids.ts), each operation's 2xx body type (src/generated/responses.ts, generators/responses.ts), each rule's placement (src/generated/placement.ts, generators/placement.ts, from spec/placement.yaml) and the check suites (suites/generated, generators/suites.ts).

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateIds } from './ids.ts';
import { generatePlacement } from './placement.ts';
import { generateResponses } from './responses.ts';
import { generateSuites, placementFor, SUITES_OUT_DIR } from './suites.ts';
import { loadModelFrom } from '../src/model/load.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SPEC_DIR = path.join(ROOT, 'spec');
export const TYPES_OUT_DIR = path.join(ROOT, 'src/generated');

export async function generateAll(specDir = SPEC_DIR): Promise<string[]> {
  const written: string[] = [];
  const typesModule = path.join(ROOT, 'generators/types.ts');
  if (existsSync(typesModule)) {
    const { generateTypes } = await import(pathToFileURL(typesModule).href);
    written.push(...(await generateTypes(specDir, TYPES_OUT_DIR)));
  }
  written.push(await generateIds(specDir, TYPES_OUT_DIR));
  written.push(await generateResponses(specDir, TYPES_OUT_DIR));
  const model = await loadModelFrom(specDir);
  written.push(await generatePlacement(model, await placementFor(model, specDir), TYPES_OUT_DIR));
  written.push(...(await generateSuites(specDir, SUITES_OUT_DIR)));
  return written;
}

const invoked = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invoked) {
  generateAll(process.argv[2] ?? SPEC_DIR)
    .then((files) => {
      for (const f of files) console.log(`wrote ${path.relative(ROOT, f)}`);
    })
    .catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(2);
    });
}

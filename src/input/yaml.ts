// The yaml package, loaded on first use. Most starts never parse YAML: the model comes from its
// snapshot (src/model/snapshot.ts) and a profile is usually JSON, yet the parser's ~70 modules were
// loaded on every start by the three modules that can parse it. They call this instead; synchronous,
// because a file's line numbers are asked for synchronously (InputDocument.lineOf).
import { createRequire } from 'node:module';

type YamlLib = typeof import('yaml');

const load = createRequire(import.meta.url);
let lib: YamlLib | undefined;

/** The yaml package (its CommonJS build, the one `import 'yaml'` gives on Node as well). */
export function yamlLib(): YamlLib {
  return (lib ??= load('yaml') as YamlLib);
}

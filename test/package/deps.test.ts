// The installed package has its `dependencies` only: a runtime module (src/, suites/, not tests)
// importing a devDependency works in the checkout and crashes for users. The tarball test catches it
// in minutes; this catches it in milliseconds and names the file.

import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package/index.ts';

const IMPORT = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Package names a module imports at run time (type-only imports are erased by the build). */
export function runtimePackages(source: string): string[] {
  const out = new Set<string>();
  for (const m of source.matchAll(IMPORT)) {
    if (/^\s*(?:import|export)\s+type\s/.test(m[0].trimStart() + ' ')) continue;
    const spec = m[1] ?? m[2];
    if (spec.startsWith('.') || spec.startsWith('node:') || builtinModules.includes(spec)) continue;
    out.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
  }
  return [...out];
}

async function runtimeSources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await runtimeSources(full)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/**
 * The client bank's library clients (got, ky, axios, ...) are devDependencies on purpose: each is loaded
 * by a dynamic import inside its entry, and an installed CLI without them reports the entry "not
 * available" (the tarball test runs `selftest --area clients` there). Only dynamic imports are let through.
 */
const OPTIONAL_DYNAMIC: Record<string, readonly string[]> = {
  'src/audit/bank/transports.ts': ['got', 'ky', 'axios', 'axios-retry', 'p-retry', 'openapi-fetch'],
};

const dynamicOnly = (source: string, name: string) => !new RegExp(`^\\s*(?:import|export)\\s(?!type\\s)[^'"]*?from\\s+['"]${name}(?:/[^'"]*)?['"]`, 'm').test(source);

describe('runtime imports', () => {
  it('every package a runtime module imports is a dependency, not a devDependency', async () => {
    const { dependencies } = JSON.parse(await readFile(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const missing: string[] = [];
    for (const root of ['src', 'suites']) {
      for (const file of await runtimeSources(path.join(PACKAGE_ROOT, root))) {
        const source = await readFile(file, 'utf8');
        const rel = path.relative(PACKAGE_ROOT, file).split(path.sep).join('/');
        for (const name of runtimePackages(source)) {
          if (name in dependencies) continue;
          if (OPTIONAL_DYNAMIC[rel]?.includes(name) && dynamicOnly(source, name)) continue;
          missing.push(`${rel} imports ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('the scan sees value imports and skips types, relatives and builtins', () => {
    const src = [
      "import { x } from 'tsx/esm/api';",
      "import type { Y } from 'vitest';",
      "import Handlebars from 'handlebars';",
      "export { z } from '@scope/pkg/sub';",
      "import { readFile } from 'node:fs/promises';",
      "import path from 'path';",
      "import { a } from './a.ts';",
      "const m = await import('autocannon');",
    ].join('\n');
    expect(runtimePackages(src).sort()).toEqual(['@scope/pkg', 'autocannon', 'handlebars', 'tsx']);
    // An optional library passes only as a dynamic import: a static one would crash the installed CLI at load.
    expect(dynamicOnly("import { got } from 'got';", 'got')).toBe(false);
    expect(dynamicOnly("const { got } = await import('got');\nimport type { Got } from 'got';", 'got')).toBe(true);
  });
});

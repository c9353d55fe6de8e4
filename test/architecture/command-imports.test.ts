// One front door per mode (issue 37): a command file (src/cli/commands/*.ts) is flags, one src/api call
// and an exit code. Outside src/cli it may import only src/api, src/options, src/report and src/errors;
// what a mode needs from the folders below (load, audit, mutants, model, suites ...) it reaches through
// src/api, which library users call too. Type imports count: a command that names a lower folder's type
// is reaching past the front door.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './scan.ts';

const DIR = path.join(ROOT, 'src/cli/commands');
const ALLOWED = ['src/api/', 'src/options/', 'src/report/', 'src/errors/', 'src/cli/'];

/** The relative imports (values and types) of a command file's source that leave the allowed folders, root-relative. */
function outsideImports(src: string): string[] {
  const specs = [...src.matchAll(/^(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm)].map((m) => m[1] ?? m[2]);
  const paths = specs.map((s) => path.relative(ROOT, path.resolve(DIR, s)).split(path.sep).join('/'));
  return [...new Set(paths.filter((p) => !ALLOWED.some((a) => p.startsWith(a))))].sort();
}

const commandFiles = readdirSync(DIR).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'));

describe('command files enter through src/api', () => {
  it.each(commandFiles)('%s imports only api, options, report and errors', (file) => {
    expect(outsideImports(readFileSync(path.join(DIR, file), 'utf8'))).toEqual([]);
  });

  it('catches an import past the front door, static, type-only or dynamic', () => {
    const src = [
      "import { runLoad } from '../../load/index.ts';",
      "import type { Model } from '../../model/types.ts';",
      "const bank = () => import('../../audit/bank/index.ts');",
      "import { runLoadMode } from '../../api/index.ts';",
      "import { sharedFlags } from '../flags.ts';",
    ].join('\n');
    expect(outsideImports(src)).toEqual(['src/audit/bank/index.ts', 'src/load/index.ts', 'src/model/types.ts']);
  });
});

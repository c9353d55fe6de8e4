// Where the installed package lives on disk. Data files (spec/, reports/ templates, package.json) sit at
// the package root, but code runs either from src/ (tsx, a dev checkout) or from dist/src/ (compiled,
// an installed tarball), so a fixed relative climb to spec/ from import.meta.url is right in one layout and
// wrong in the other. Walking up to the nearest package.json is right in both.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`baas-conform: no package.json above ${start}; the installation is incomplete, reinstall the package`);
  }
}

/** Absolute path of the package root (the directory holding package.json, spec/, reports/). */
export const PACKAGE_ROOT: string = findRoot(path.dirname(fileURLToPath(import.meta.url)));

/** Absolute path of a file shipped with the package, e.g. packagePath('spec', 'openapi.yaml'). */
export function packagePath(...segments: string[]): string {
  return path.join(PACKAGE_ROOT, ...segments);
}
